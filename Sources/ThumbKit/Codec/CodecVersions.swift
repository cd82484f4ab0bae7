import CCodecSupport
import CLibDeflate
import CLibHEIF
import CLibLCMS
import CLibWebP

/// The versions of every library whose output can change an output's bytes: each decoder's library
/// (libpng and zlib, libjpeg-turbo, libwebp, giflib, libtiff, libheif with libde265 and dav1d),
/// lcms2 (colour conversion) and the encoders (libdeflate for PNG, libjpeg-turbo, libwebp's
/// encoder, which reports its own version, and libheif's AV1 encoder, libaom). They are one field, `libraries`, of every settings description a
/// manifest records, so an upgrade of any one rebuilds what it may change and `thumbgen check` can
/// name the library whose version differs; `thumbgen --version` prints the same list.
package enum CodecVersions {
    /// Each library and its version, in a fixed order: the decoders in `ImageDecoders.all`'s order
    /// (their `libraryVersion`s, e.g. "libpng 1.6.39, zlib 1.2.13"), then lcms2, libwebp's
    /// encoder, libaom and libdeflate unless a decoder already names them.
    package static let all: [String] = {
        var items = ImageDecoders.libraryVersions.flatMap(LibraryVersions.items(of:))
        for extra in [lcms, "libwebp-encoder " + String(webpEncoder.drop { $0 != " " }.dropFirst()), avifEncoder, pngEncoder] where !items.contains(extra) {
            items.append(extra)
        }
        return items
    }()

    /// `all` as the settings description's `libraries` field and `--version` write it.
    package static let field: String = all.joined(separator: ", ")

    /// e.g. "libpng 1.6.39, zlib 1.2.13".
    package static var png: String { PNGDecoder.libraryVersion }
    /// e.g. "libjpeg-turbo 2.1.5 (API 62), lcms2 2.14".
    package static var jpeg: String { JPEGDecoder.libraryVersion }
    /// libwebp's encoder, e.g. "libwebp 1.2.4" (Debian ships encoder and decoder together, but
    /// each reports its own version).
    package static let webpEncoder = text(tg_webp_encoder_version)
    /// libheif's AV1 encoder, e.g. "libaom 3.6.0" (libheif's own version is listed with the decoders).
    package static let avifEncoder = text(tg_avif_encoder_version)
    /// The PNG encoder's compressor, e.g. "libdeflate 1.14".
    package static let pngEncoder = text(tg_deflate_version)
    /// e.g. "lcms2 2.14".
    static let lcms = text(tg_cms_version)

    /// What a C module's version function writes into a buffer.
    static func text(_ write: (UnsafeMutablePointer<CChar>?) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: Int(TG_VERSION_SIZE))
        buffer.withUnsafeMutableBufferPointer { write($0.baseAddress) }
        return String(cMessage: buffer)
    }
}
