/// What every encoder asks of the pixels before choosing a layout: whether all of them are opaque
/// (PNG drops alpha, JPEG may encode, WebP writes no alpha plane) and whether all are gray (PNG
/// writes gray, JPEG one component). One pass over straight RGBA8 samples, stopping once both
/// answers are no.
struct PixelTraits {
    let isOpaque: Bool
    let isGray: Bool

    init(rgba8 rgba: [UInt8]) {
        var opaque = true
        var gray = true
        for i in stride(from: 0, to: rgba.count, by: 4) {
            if rgba[i + 3] != 255 { opaque = false }
            if rgba[i] != rgba[i + 1] || rgba[i] != rgba[i + 2] { gray = false }
            if !opaque && !gray { break }
        }
        isOpaque = opaque
        isGray = gray
    }
}
