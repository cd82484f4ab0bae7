import CCodecSupport
import CLibHEIF

/// Writes AVIF files through libheif's AV1 encoder (libaom), deterministically.
///
/// The same pixels and settings always give the same bytes for a given libheif and libaom: one
/// encoder thread, good-quality mode, 8-bit samples, no EXIF or XMP, only an ICC profile when one
/// is given (else the sRGB nclx values). Alpha is kept as AVIF's alpha auxiliary image (an opaque
/// image gets none).
public struct AVIFEncoder: Sendable, Hashable {
    /// The quality `--quality` defaults to for AVIF: 50, libvips' heifsave and sharp's default, so
    /// a set moved from those tools keeps its sizes. `make bench` (BENCH_ONLY=web) puts it at a
    /// third of JPEG 85's bytes, at an SSIM of 0.94 against JPEG's 0.97 (docs/web.md).
    public static let defaultQuality = 50
    /// The effort `--effort` defaults to: 4 (libaom speed 5), libvips' and sharp's default.
    public static let defaultEffort = 4
    /// The largest effort; libaom's speed is `maximumEffort - effort`.
    public static let maximumEffort = 9

    /// Chroma subsampling.
    public enum Chroma: String, Sendable, Hashable {
        /// 4:2:0, chroma at half resolution both ways: the smallest files.
        case halved = "420"
        /// 4:4:4: full-resolution chroma, for sharp colour edges (screenshots, line art).
        case full = "444"
    }

    /// libheif's quality scale, 1…100 (mapped onto libaom's quantiser). `encode` throws outside it.
    public var quality: Int
    /// 0 (fastest) … 9 (slowest, smallest files): libaom's cpu-used is 9 − effort.
    public var effort: Int
    /// Chroma subsampling, 4:2:0 unless asked.
    public var chroma: Chroma

    /// An encoder with the given settings (checked when encoding, so no argument can trap).
    public init(quality: Int = AVIFEncoder.defaultQuality, effort: Int = AVIFEncoder.defaultEffort, chroma: Chroma = .halved) {
        self.quality = quality
        self.effort = effort
        self.chroma = chroma
    }

    /// libheif's own limit per side (1.15: 32768 pixels); AV1 itself allows 65536.
    public static let maximumSide = 32_768

    /// Whether this system's libheif has libaom's AV1 encoder.
    public static var isAvailable: Bool { tg_avif_encoder_available() != 0 }

    /// The AVIF file bytes for an image; `iccProfile`, when given, is embedded (colr 'prof').
    public func encode(_ image: Image, iccProfile: [UInt8]? = nil) throws(EncodeError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .failed(.heif, reason: "quality \(quality) is not 1…100") }
        guard (0...Self.maximumEffort).contains(effort) else { throw .failed(.heif, reason: "effort \(effort) is not 0…\(Self.maximumEffort)") }
        guard image.width <= Self.maximumSide && image.height <= Self.maximumSide else {
            throw .failed(.heif, reason: "\(image.width)x\(image.height) is beyond libheif's \(Self.maximumSide) pixels a side")
        }
        let rgba = image.rgba8
        let hasAlpha = !PixelTraits(rgba8: rgba).isOpaque
        let icc = iccProfile ?? []
        return try EncoderCall.bytes(.heif, reason: { "AVIF: " + $0 }) { buffer, message in
            rgba.withUnsafeBufferPointer { pixels in icc.withUnsafeBufferPointer { icc in
                var params = tg_avif_encode_params(
                    width: UInt32(image.width), height: UInt32(image.height), rgba: pixels.baseAddress, stride: image.width * 4,
                    has_alpha: hasAlpha ? 1 : 0, quality: Int32(quality), speed: Int32(Self.maximumEffort - effort),
                    chroma444: chroma == .full ? 1 : 0, icc: icc.baseAddress, icc_size: icc.count)
                return tg_avif_encode(&params, buffer, message)
            } }
        }
    }
}
