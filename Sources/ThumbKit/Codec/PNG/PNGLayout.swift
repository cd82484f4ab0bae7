/// The smallest lossless PNG storage for some 8-bit RGBA pixels, and the packed samples for it.
///
/// Choice, in order: opaque gray → gray at the lowest exact bit depth (1, 2, 4 or 8);
/// at most 256 distinct RGBA colours → palette (lowest bit depth for the count, tRNS for the
/// non-opaque entries); gray with alpha → gray+alpha; opaque → RGB; anything else → RGBA.
struct PNGLayout: Equatable {
    let colorType: PNGColorType
    let bitDepth: Int
    /// One byte per sample (palette index, gray value scaled to the bit depth, or channel value).
    let samples: [UInt8]
    let samplesPerPixel: Int
    /// RGB triples, for `.palette`.
    let palette: [UInt8]
    /// Alpha of the first non-opaque palette entries, for `.palette`.
    let transparency: [UInt8]

    static func rgba(_ image: Image) -> PNGLayout {
        PNGLayout(colorType: .rgba, bitDepth: 8, samples: image.rgba8, samplesPerPixel: 4, palette: [], transparency: [])
    }

    static func smallest(for image: Image) -> PNGLayout {
        let rgba = image.rgba8
        let pixelCount = image.width * image.height
        let traits = PixelTraits(rgba8: rgba)
        let opaque = traits.isOpaque, gray = traits.isGray

        if gray && opaque {
            let values = stride(from: 0, to: rgba.count, by: 4).map { rgba[$0] }
            // A gray level is exact at depth d when it is a multiple of 255 / (2^d - 1).
            let depth = [1, 2, 4].first { d in
                let step = UInt8(255 / ((1 << d) - 1))
                return values.allSatisfy { $0 % step == 0 }
            } ?? 8
            let step = UInt8(255 / ((1 << depth) - 1))
            return PNGLayout(colorType: .gray, bitDepth: depth, samples: values.map { $0 / step },
                             samplesPerPixel: 1, palette: [], transparency: [])
        }

        if let paletted = palettized(rgba, pixelCount: pixelCount) { return paletted }

        if gray {
            var samples = [UInt8]()
            samples.reserveCapacity(pixelCount * 2)
            for i in stride(from: 0, to: rgba.count, by: 4) {
                samples.append(rgba[i])
                samples.append(rgba[i + 3])
            }
            return PNGLayout(colorType: .grayAlpha, bitDepth: 8, samples: samples, samplesPerPixel: 2,
                             palette: [], transparency: [])
        }
        if opaque {
            var samples = [UInt8]()
            samples.reserveCapacity(pixelCount * 3)
            for i in stride(from: 0, to: rgba.count, by: 4) {
                samples.append(rgba[i])
                samples.append(rgba[i + 1])
                samples.append(rgba[i + 2])
            }
            return PNGLayout(colorType: .rgb, bitDepth: 8, samples: samples, samplesPerPixel: 3,
                             palette: [], transparency: [])
        }
        return PNGLayout.rgba(image)
    }

    /// A palette layout when there are at most 256 distinct colours, else nil.
    private static func palettized(_ rgba: [UInt8], pixelCount: Int) -> PNGLayout? {
        var table = ColourTable()
        var entryOf = [UInt8](repeating: 0, count: pixelCount)
        let fits: Bool = rgba.withUnsafeBufferPointer { rgba in
            for p in 0..<pixelCount {
                let i = p &* 4
                let key = UInt32(rgba[i]) << 24 | UInt32(rgba[i &+ 1]) << 16 | UInt32(rgba[i &+ 2]) << 8 | UInt32(rgba[i &+ 3])
                guard let entry = table.entry(for: key) else { return false }
                entryOf[p] = entry
            }
            return true
        }
        guard fits else { return nil }
        // Deterministic order: translucent entries first (so tRNS stays short), then by value.
        // Entry numbers are positions in `table.colours`, so sorting them gives both the palette
        // and each entry's palette index.
        let found = table.colours
        let order = found.indices.sorted { i, j in
            let a = found[i], b = found[j]
            let aOpaque = a & 0xff == 0xff, bOpaque = b & 0xff == 0xff
            return aOpaque != bOpaque ? !aOpaque : a < b
        }
        let colours = order.map { found[$0] }
        var indexOfEntry = [UInt8](repeating: 0, count: order.count)
        for (index, entry) in order.enumerated() { indexOfEntry[entry] = UInt8(index) }
        let samples = entryOf.map { indexOfEntry[Int($0)] }
        var palette = [UInt8]()
        var transparency = [UInt8]()
        for key in colours {
            palette += [UInt8(key >> 24), UInt8(key >> 16 & 0xff), UInt8(key >> 8 & 0xff)]
            if key & 0xff != 0xff { transparency.append(UInt8(key & 0xff)) }
        }
        let depth = colours.count <= 2 ? 1 : colours.count <= 4 ? 2 : colours.count <= 16 ? 4 : 8
        return PNGLayout(colorType: .palette, bitDepth: depth, samples: samples, samplesPerPixel: 1,
                         palette: palette, transparency: transparency)
    }
}

/// The distinct RGBA colours of an image, up to 256, each with an entry number in order of first
/// appearance. Open addressing in a table twice that size: Swift's `Dictionary` hashed every pixel
/// with SipHash, 2.5% of a run over small icons.
private struct ColourTable {
    private static let slotCount = 512
    private var keys = [UInt32](repeating: 0, count: slotCount)
    /// Entry number + 1 of the colour in each slot; 0 for an empty slot.
    private var entries = [UInt16](repeating: 0, count: slotCount)
    private(set) var colours: [UInt32] = []
    private var lastKey: UInt32 = 0
    private var lastEntry: UInt8?

    /// The entry of `key`, added if new; nil when it would be the 257th colour.
    mutating func entry(for key: UInt32) -> UInt8? {
        // Neighbouring pixels often share a colour.
        if key == lastKey, let lastEntry { return lastEntry }
        var slot = Int((key &* 0x9E37_79B1) >> 23)
        while true {
            let stored = entries[slot]
            if stored == 0 {
                if colours.count == 256 { return nil }
                colours.append(key)
                keys[slot] = key
                entries[slot] = UInt16(colours.count)
                break
            }
            if keys[slot] == key { break }
            slot = (slot + 1) & (ColourTable.slotCount - 1)
        }
        let entry = UInt8(entries[slot] - 1)
        lastKey = key
        lastEntry = entry
        return entry
    }
}
