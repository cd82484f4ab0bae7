import CCodecSupport
import CLibJPEG

/// Writes baseline or progressive JPEGs through libjpeg-turbo, deterministically.
///
/// The same pixels and settings always give the same bytes for a given libjpeg-turbo: the
/// accurate integer DCT, optimised Huffman tables, a JFIF header with no thumbnail, no EXIF, no
/// comment and no timestamp. JPEG has no alpha: the image must be opaque (the thumbnailer flattens
/// it onto the background first), and `encode` throws otherwise rather than dropping it silently.
/// An image whose pixels are all gray is written with one component, a third of the data.
public struct JPEGEncoder: Sendable, Hashable {
    /// How the two chroma planes are sampled against luma.
    public enum Chroma: String, Sendable, Hashable, CaseIterable {
        /// 4:2:0, chroma at half the width and height (libjpeg's and every camera's default).
        case halved = "420"
        /// 4:4:4, chroma at full resolution: sharper coloured edges (text, icons, pixel art), larger
        /// files.
        case full = "444"
    }

    /// The quality `--quality` defaults to for JPEG: 85, where vipsthumbnail users and sharp
    /// land for photos (libjpeg's quality scale).
    public static let defaultQuality = 85

    /// libjpeg's quality scale, 1…100; `encode` throws for any other.
    public var quality: Int
    /// Progressive scans (`jpeg_simple_progression`): the picture arrives coarse to fine on a slow
    /// link, and files are usually a little smaller.
    public var progressive: Bool
    /// Chroma subsampling.
    public var chroma: Chroma

    /// An encoder with the given settings (checked when encoding, so no argument can trap).
    public init(quality: Int = JPEGEncoder.defaultQuality, progressive: Bool = false, chroma: Chroma = .halved) {
        self.quality = quality
        self.progressive = progressive
        self.chroma = chroma
    }

    /// The JPEG file bytes for an opaque image; `iccProfile`, when given, is embedded (APP2).
    public func encode(_ image: Image, iccProfile: [UInt8]? = nil) throws(EncodeError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .failed(.jpeg, reason: "quality \(quality) is not 1…100") }
        guard image.width <= JPEGEncoder.maximumSide && image.height <= JPEGEncoder.maximumSide else {
            throw .failed(.jpeg, reason: "\(image.width)x\(image.height) is beyond JPEG's \(JPEGEncoder.maximumSide) pixels a side")
        }
        let rgba = image.rgba8
        let traits = PixelTraits(rgba8: rgba)
        guard traits.isOpaque else { throw .failed(.jpeg, reason: "the image has transparency, which JPEG cannot hold") }
        let gray = traits.isGray
        let samples = gray ? Self.samples(rgba, channels: [0]) : Self.samples(rgba, channels: [0, 1, 2])
        let components = gray ? 1 : 3
        let icc = iccProfile ?? []
        return try EncoderCall.bytes(.jpeg, reason: { $0.lowercasedFirst }) { buffer, message in
            samples.withUnsafeBufferPointer { pixels in icc.withUnsafeBufferPointer { icc in
                var params = tg_jpeg_encode_params(
                    width: UInt32(image.width), height: UInt32(image.height), components: Int32(components),
                    pixels: pixels.baseAddress, stride: image.width * components, quality: Int32(quality),
                    progressive: progressive ? 1 : 0, subsampling: chroma == .full ? 0 : 2, ycck: 0,
                    app1: nil, app1_size: 0, icc: icc.baseAddress, icc_size: icc.count)
                return tg_jpeg_encode(&params, buffer, message)
            } }
        }
    }

    /// JPEG's frame header holds each side in 16 bits (ITU T.81 §B.2.2).
    public static let maximumSide = 65_535

    /// The chosen channels of every pixel, interleaved.
    private static func samples(_ rgba: [UInt8], channels: [Int]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(rgba.count / 4 * channels.count)
        for pixel in stride(from: 0, to: rgba.count, by: 4) {
            for channel in channels { out.append(rgba[pixel + channel]) }
        }
        return out
    }
}
