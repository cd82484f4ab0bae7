@testable import ThumbKit

/// Whole-image decodes for tests: the decoder on its own, and the decode plan's full path
/// (colour conversion and rotation) with a chosen reduction.
extension JPEGDecoder {
    /// The image as stored (naive CMYK), decoded at 1/`reduction`.
    func decodedImage(reduction: Int = 1, allowPartial: Bool = false) throws(DecodeError) -> Image {
        try start(DecodeRequest(reduction: reduction, allowPartial: allowPartial))
        guard case .rgba(let image) = try decodeImage() else { preconditionFailure("RGBA asked for") }
        return image
    }
}

/// An image as the thumbnail pipeline decodes it whole, before resampling.
struct DecodedSource {
    let image: Image
    let warnings: [String]
    let plan: DecodePlan

    var keptProfile: [UInt8]? { plan.keptProfile }
    var reduction: Int { plan.reduction }

    /// Decodes `bytes` as `options` say (rotation, colour, partial files); the reduction (or the
    /// scaled size, for WebP) is the one that keeps twice `shrinkTarget` (upright), or none.
    static func load(_ bytes: [UInt8], options: ThumbnailOptions = ThumbnailOptions(),
                     shrinkTarget: (width: Int, height: Int)? = nil) throws(DecodeError) -> DecodedSource {
        let decoder = try ImageSource.bytes(bytes).openDecoder(limits: options.limits)
        var plan = DecodePlan(header: decoder.header, decoder: type(of: decoder), options: options, scales: [1]) {
            Thumbnailer(options: options).plan(sourceWidth: $0, sourceHeight: $1, scale: $2)
        }
        plan.request.reduction = 1
        plan.request.scaledSize = nil
        if let target = shrinkTarget {
            let stored = plan.orientation.swapsAxes ? (width: target.height, height: target.width) : target
            let (width, height) = (decoder.header.storedWidth, decoder.header.storedHeight)
            if type(of: decoder).scalesToAnySize(decoder.header) {
                plan.request.scaledSize = DecodePlan.scaledSize(width: width, height: height, target: stored)
            } else {
                plan.request.reduction = DecodePlan.reduction(width: width, height: height, target: stored,
                                                              available: type(of: decoder).reductions)
            }
        }
        let decoded = try plan.decode(decoder)
        return DecodedSource(image: decoded.image, warnings: decoded.warnings, plan: plan)
    }

    /// The thumbnail `thumbnailer` makes of this decoded image at a scale.
    func thumbnail(_ thumbnailer: Thumbnailer, scale: Int = 1) throws(ThumbnailError) -> Image {
        try thumbnailer.picture(ofDecoded: image, decoding: plan, scale: scale, warnings: warnings, rating: nil).image
    }

    /// Options with one thing changed, for `load`.
    static func options(autoRotate: Bool = true, keepProfile: Bool = false, allowPartial: Bool = false) -> ThumbnailOptions {
        var options = ThumbnailOptions(autoRotate: autoRotate, keepProfile: keepProfile)
        options.allowPartial = allowPartial
        return options
    }
}

extension Thumbnailer {
    /// The @`scale` thumbnail's pixels of an image in memory.
    func pixels(of image: Image, scale: Int = 1) throws(ThumbnailError) -> Image {
        try thumbnail(of: image, scale: scale).image
    }
}

/// The decode plan the thumbnailer would make for some bytes.
enum DecodeTestPlan {
    static func plan(_ bytes: [UInt8], options: ThumbnailOptions = ThumbnailOptions(),
                     scales: [Int] = [1]) throws(DecodeError) -> DecodePlan {
        let decoder = try ImageSource.bytes(bytes).openDecoder(limits: options.limits)
        return DecodePlan(header: decoder.header, decoder: type(of: decoder), options: options, scales: scales) {
            Thumbnailer(options: options).plan(sourceWidth: $0, sourceHeight: $1, scale: $2)
        }
    }

    /// True when the pixels come out of the decoder as they are: no colour conversion, no rotation
    /// (so a single scale can stream).
    static func needsNoTransform(_ bytes: [UInt8], options: ThumbnailOptions = ThumbnailOptions()) throws(DecodeError) -> Bool {
        let plan = try plan(bytes, options: options)
        return plan.colour == .none && plan.orientation == .topLeft
    }
}

/// Every row of a row source, widened to RGBA (opaque alpha for RGB rows), as one image.
enum RowSourceImage {
    static func read<Rows: RowSource>(_ rows: inout Rows) throws(Rows.ReadError) -> Image {
        if rows.bitDepth == 16 {
            var rgba: [UInt16] = [], row: [UInt16] = []
            for _ in 0..<rows.height {
                try rows.readRow(into: &row)
                append(row, channels: rows.rowChannels, to: &rgba)
            }
            return Image(width: rows.width, height: rows.height, rgba16: rgba)
        }
        var rgba: [UInt8] = [], row: [UInt8] = []
        for _ in 0..<rows.height {
            try rows.readRow(into: &row)
            append(row, channels: rows.rowChannels, to: &rgba)
        }
        return Image(width: rows.width, height: rows.height, rgba8: rgba)
    }

    private static func append<Sample: FixedWidthInteger & UnsignedInteger>(_ row: [Sample], channels: Int, to rgba: inout [Sample]) {
        if channels == 4 {
            rgba += row
            return
        }
        for x in 0..<row.count / 3 { rgba += row[3 * x..<3 * x + 3] + [.max] }
    }
}
