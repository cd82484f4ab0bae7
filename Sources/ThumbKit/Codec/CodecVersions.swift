import CCodecSupport
import CLibGIF
import CLibHEIF
import CLibJPEG
import CLibLCMS
import CLibPNG
import CLibTIFF
import CLibWebP

/// The codec libraries linked in. Output bytes can differ between their versions (PNG files
/// between zlib versions, decoded JPEG pixels and colour conversions between libjpeg and lcms2
/// versions), so the versions are part of `ThumbnailOptions.canonicalDescription`. Computed once.
package enum CodecVersions {
    /// e.g. "libpng 1.6.39, zlib 1.2.13".
    package static let png = text(tg_png_versions)
    /// e.g. "libjpeg-turbo 2.1.5 (API 62), lcms2 2.14".
    package static let jpeg = "\(text(tg_jpeg_version)), \(lcms)"
    /// e.g. "libwebp 1.2.4".
    package static let webp = text(tg_webp_version)
    /// libwebp's encoder, e.g. "libwebp 1.2.4" (Debian ships encoder and decoder together, but
    /// each reports its own version).
    package static let webpEncoder = text(tg_webp_encoder_version)
    /// e.g. "giflib 5.2.1".
    package static let gif = text(tg_gif_version)
    /// e.g. "libtiff 4.5.0".
    package static let tiff = text(tg_tiff_version)
    /// e.g. "libheif 1.15.1 (HEVC: libde265 1.0.11, AV1: dav1d 1.0.0)": libheif and the decoder it uses per format.
    package static let heif = text(tg_heif_version)
    /// e.g. "lcms2 2.14".
    static let lcms = text(tg_cms_version)

    /// What a C module's version function writes into a buffer.
    private static func text(_ write: (UnsafeMutablePointer<CChar>?) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: Int(TG_VERSION_SIZE))
        buffer.withUnsafeMutableBufferPointer { write($0.baseAddress) }
        return String(cMessage: buffer)
    }
}
