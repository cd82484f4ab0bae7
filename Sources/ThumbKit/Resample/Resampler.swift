/// Scales images with a separable two-pass filter in 32-bit float, on premultiplied alpha, in linear
/// light by default.
///
/// Pipeline: straight 8/16-bit sRGB samples → premultiplied float through exact tables (linear
/// light, or the sRGB values themselves with `light: .sRGB`) → horizontal pass on each source row as
/// it arrives → vertical pass over a sliding window of filtered rows → a premultiplied `Bitmap` in
/// the same light. `Image(bitmap)` then rounds it exactly back to 8-bit sRGB.
///
/// Geometry: mapping a source span of `A` pixels (the image, or a `Rect`) onto `B` output
/// pixels, output pixel `i` is centred at source coordinate `origin + (i + 0.5)·A/B − 0.5`, where
/// pixel `j` is centred at `j`. When reducing, the kernel is stretched by `A/B` (support `3·A/B`
/// for Lanczos-3); when enlarging it is used at its natural width. Taps outside the image are
/// dropped and the remaining weights renormalised to sum to 1; taps outside a region but inside the
/// image are used, as a crop of the full-resolution result would. Weights are computed once per
/// axis in double precision (Pillow's `Resample.c` scheme) and stored as normalised floats.
///
/// An output the same size as the source with no crop is a pixel-exact conversion of it (no filter
/// runs); any other unscaled axis that starts on a pixel boundary is copied, not filtered, for every
/// kernel (Mitchell, which is not interpolating, would otherwise blur an axis it does not resize).
/// Results are deterministic: fixed summation order, no fast-math.
package struct Resampler: Sendable, Hashable {
    /// The filter; Lanczos-3 by default.
    package var kernel: ResamplingKernel
    /// The light the filter works in and the output bitmap is in; linear by default.
    package var light: Bitmap.LightEncoding
    /// Whether the horizontal pass may use the AVX2 kernels; tests turn it off to compare the
    /// portable loop with them (both must give the same bits).
    var vectorConvolve = ResampleEngine.hasVectorConvolve

    /// A resampler with the given filter and working light.
    package init(kernel: ResamplingKernel = .lanczos3, light: Bitmap.LightEncoding = .linear) {
        self.kernel = kernel
        self.light = light
    }

    /// Resamples an in-memory image (or the `region` of it; default the whole image) to
    /// `width` × `height` pixels. Both must be positive and the region must lie inside the image.
    package func resample(_ image: Image, to width: Int, height: Int, region: Rect? = nil) -> Bitmap {
        let region = region ?? Rect(width: image.width, height: image.height)
        if width == image.width && height == image.height && region.isWhole(width: image.width, height: image.height) {
            return Bitmap(image, light: light)
        }
        var engine = makeEngine(sourceWidth: image.width, sourceHeight: image.height,
                                width: width, height: height, region: region)
        let rowLength = image.width * 4
        switch image.samples {
        case .eight(let samples):
            samples.withUnsafeBufferPointer { all in
                feed(&engine, rows: image.height) { engine, y in
                    engine.push(row: UnsafeBufferPointer(rebasing: all[y * rowLength ..< (y + 1) * rowLength]))
                }
            }
        case .sixteen(let samples):
            samples.withUnsafeBufferPointer { all in
                feed(&engine, rows: image.height) { engine, y in
                    engine.push(row: UnsafeBufferPointer(rebasing: all[y * rowLength ..< (y + 1) * rowLength]))
                }
            }
        }
        return Bitmap(width: width, height: height, light: light, pixels: engine.output)
    }

    /// Resamples rows streamed from `source` (e.g. a non-interlaced `PNGDecoder`) without holding
    /// the whole image: memory is about (kernel window rows + 1) × output width, plus one source
    /// row. Rows are read in order and reading stops after the last row the output needs; rows the
    /// output never reads are read (the source cannot seek) but not converted or filtered.
    package func resample<Source: RowSource>(_ source: inout Source, to width: Int, height: Int,
                                            region: Rect? = nil) throws(Source.ReadError) -> Bitmap {
        let region = region ?? Rect(width: source.width, height: source.height)
        var engine = makeEngine(sourceWidth: source.width, sourceHeight: source.height,
                                width: width, height: height, region: region)
        let channels = source.rowChannels
        precondition(channels == 3 || channels == 4, "rows must be RGB or RGBA")
        if source.bitDepth == 16 {
            var row = [UInt16](repeating: 0, count: source.width * channels)
            while !engine.isFinished {
                try source.readRow(into: &row)
                if engine.needsNextRow {
                    row.withUnsafeBufferPointer { engine.push(row: $0, channels: channels) }
                } else {
                    engine.skipRow()
                }
            }
        } else {
            var row = [UInt8](repeating: 0, count: source.width * channels)
            while !engine.isFinished {
                try source.readRow(into: &row)
                if engine.needsNextRow {
                    row.withUnsafeBufferPointer { engine.push(row: $0, channels: channels) }
                } else {
                    engine.skipRow()
                }
            }
        }
        return Bitmap(width: width, height: height, light: light, pixels: engine.output)
    }

    /// One size to resample to, for `resample(_:to:)`.
    struct Target: Hashable {
        let width: Int
        let height: Int
        let region: Rect
    }

    /// Resamples an in-memory image to several sizes in one pass over its rows: each row is
    /// converted to float once, for every target that still needs it, and filtered by each
    /// target's engine. Each bitmap is exactly the one `resample(_:to:height:region:)` gives for
    /// its target alone (the conversion is the same and both passes run as they would); the work
    /// of converting is done once instead of once a target. Targets the same size as the image,
    /// uncropped, are converted as that method converts them.
    func resample(_ image: Image, to targets: [Target]) -> [Bitmap] {
        var bitmaps = [Bitmap?](repeating: nil, count: targets.count)
        var resized: [Int] = []
        for (index, target) in targets.enumerated() {
            if target.width == image.width && target.height == image.height && target.region.isWhole(width: image.width, height: image.height) {
                bitmaps[index] = Bitmap(image, light: light)
            } else {
                resized.append(index)
            }
        }
        var source = ImageRows(image: image)
        let made = resample(&source, to: resized.map { targets[$0] })
        for (index, bitmap) in zip(resized, made) { bitmaps[index] = bitmap }
        return bitmaps.map { $0! }
    }

    /// Resamples rows streamed from `source` to several sizes in one pass, as
    /// `resample(_:to:)` does an image in memory: each row is read once, converted once for every
    /// target that needs it, and the source is read no further than the last row any target needs.
    func resample<Source: RowSource>(_ source: inout Source, to targets: [Target]) throws(Source.ReadError) -> [Bitmap] {
        var engines = targets.map { target in
            makeEngine(sourceWidth: source.width, sourceHeight: source.height, width: target.width, height: target.height,
                       region: target.region)
        }
        guard !engines.isEmpty else { return [] }
        let channels = source.rowChannels
        precondition(channels == 3 || channels == 4, "rows must be RGB or RGBA")
        var converted = ConvertedRow(width: source.width)
        let planar = engines[0].takesPlanes, light = self.light
        /// The columns any engine that needs the next row reads; nil when none does.
        func neededColumns() -> Range<Int>? {
            var columns: Range<Int>?
            for engine in engines where engine.needsNextRow {
                let range = engine.columnRange
                columns = columns.map { min($0.lowerBound, range.lowerBound)..<max($0.upperBound, range.upperBound) } ?? range
            }
            return columns
        }
        func consume() {
            for e in engines.indices {
                if engines[e].needsNextRow {
                    engines[e].push(converted)
                } else if !engines[e].isFinished {
                    engines[e].skipRow()
                }
            }
        }
        if source.bitDepth == 16 {
            var row = [UInt16](repeating: 0, count: source.width * channels)
            while !engines.allSatisfy(\.isFinished) {
                try source.readRow(into: &row)
                if let columns = neededColumns() {
                    row.withUnsafeBufferPointer { converted.load($0, channels: channels, columns: columns, light: light, planar: planar) }
                }
                consume()
            }
        } else {
            var row = [UInt8](repeating: 0, count: source.width * channels)
            while !engines.allSatisfy(\.isFinished) {
                try source.readRow(into: &row)
                if let columns = neededColumns() {
                    row.withUnsafeBufferPointer { converted.load($0, channels: channels, columns: columns, light: light, planar: planar) }
                }
                consume()
            }
        }
        return zip(engines, targets).map { engine, target in
            Bitmap(width: target.width, height: target.height, light: light, pixels: engine.output)
        }
    }

    private func makeEngine(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int,
                            region: Rect) -> ResampleEngine {
        precondition(width > 0 && height > 0, "output dimensions must be positive")
        precondition(region.fits(width: sourceWidth, height: sourceHeight), "region must lie inside the image")
        let columns = AxisWeightsCache.shared.weights(inputSize: sourceWidth, outputSize: width, origin: region.x,
                                                      span: region.width, kernel: kernel)
        let rows = AxisWeightsCache.shared.weights(inputSize: sourceHeight, outputSize: height, origin: region.y,
                                                   span: region.height, kernel: kernel)
        return ResampleEngine(columns: columns, rows: rows, light: light, vectorConvolve: vectorConvolve)
    }

    /// Pushes the rows the engine needs, skipping the others, until the output is complete.
    private func feed(_ engine: inout ResampleEngine, rows: Int, push: (inout ResampleEngine, Int) -> Void) {
        var y = 0
        while !engine.isFinished && y < rows {
            if engine.needsNextRow { push(&engine, y) } else { engine.skipRow() }
            y += 1
        }
    }
}
