import CCodecSupport
import CLibLCMS
import CLibWebP

/// The versions of the codec libraries whose output bytes are part of the settings a manifest
/// records. Output bytes can differ between library versions (PNG files between zlib versions,
/// decoded JPEG pixels and colour conversions between libjpeg and lcms2 versions), so these are
/// part of `ThumbnailOptions.canonicalDescription` and `OutputFormat`'s fields; their text must
/// not change, or every manifest written before goes out of date. Each decoder's own version is
/// its `libraryVersion` (what `--version` lists).
package enum CodecVersions {
    /// e.g. "libpng 1.6.39, zlib 1.2.13".
    package static var png: String { PNGDecoder.libraryVersion }
    /// e.g. "libjpeg-turbo 2.1.5 (API 62), lcms2 2.14".
    package static var jpeg: String { JPEGDecoder.libraryVersion }
    /// libwebp's encoder, e.g. "libwebp 1.2.4" (Debian ships encoder and decoder together, but
    /// each reports its own version).
    package static let webpEncoder = text(tg_webp_encoder_version)
    /// e.g. "lcms2 2.14".
    static let lcms = text(tg_cms_version)

    /// What a C module's version function writes into a buffer.
    static func text(_ write: (UnsafeMutablePointer<CChar>?) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: Int(TG_VERSION_SIZE))
        buffer.withUnsafeMutableBufferPointer { write($0.baseAddress) }
        return String(cMessage: buffer)
    }
}
