import CCodecSupport
import CLibWebP

/// Writes lossy or lossless WebPs through libwebp, deterministically.
///
/// The same pixels and settings always give the same bytes for a given libwebp: one thread,
/// method 4, no EXIF or XMP, only an ICC profile when one is given. Alpha is kept (an opaque image
/// gets no alpha plane). Lossless output keeps every sample, including the colour of fully
/// transparent pixels, so it decodes to exactly the image given.
public struct WebPEncoder: Sendable, Hashable {
    /// The quality `--quality` defaults to for WebP: 80, libwebp's and sharp's default.
    public static let defaultQuality = 80

    /// Lossy: libwebp's quality scale, 1…100. Lossless: how hard it tries to make the file
    /// smaller (100 smallest, slowest). `encode` throws outside 1…100.
    public var quality: Int
    /// Lossless (VP8L) instead of lossy (VP8).
    public var lossless: Bool

    /// An encoder with the given settings (checked when encoding, so no argument can trap).
    public init(quality: Int = WebPEncoder.defaultQuality, lossless: Bool = false) {
        self.quality = quality
        self.lossless = lossless
    }

    /// WebP's bitstreams hold each side in 14 bits.
    public static let maximumSide = 16_383

    /// The WebP file bytes for an image; `iccProfile`, when given, is embedded (ICCP chunk).
    public func encode(_ image: Image, iccProfile: [UInt8]? = nil) throws(EncodeError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .failed(.webp, reason: "quality \(quality) is not 1…100") }
        guard image.width <= Self.maximumSide && image.height <= Self.maximumSide else {
            throw .failed(.webp, reason: "\(image.width)x\(image.height) is beyond WebP's \(Self.maximumSide) pixels a side")
        }
        let rgba = image.rgba8
        let hasAlpha = !PixelTraits(rgba8: rgba).isOpaque
        let icc = iccProfile ?? []
        return try EncoderCall.bytes(.webp) { buffer, message in
            rgba.withUnsafeBufferPointer { pixels in icc.withUnsafeBufferPointer { icc in
                var params = tg_webp_encode_params(
                    width: UInt32(image.width), height: UInt32(image.height), rgba: pixels.baseAddress, stride: image.width * 4,
                    has_alpha: hasAlpha ? 1 : 0, quality: Int32(quality), lossless: lossless ? 1 : 0,
                    icc: icc.baseAddress, icc_size: icc.count)
                return tg_webp_encode(&params, buffer, message)
            } }
        }
    }
}
