import CLibJPEG
import CLibPNG

/// The codec libraries linked in. Output bytes can differ between their versions (PNG files
/// between zlib versions, decoded JPEG pixels and colour conversions between libjpeg and lcms2
/// versions), so the versions are part of `ThumbnailOptions.canonicalDescription`. Computed once.
public enum CodecVersions {
    /// e.g. "libpng 1.6.39, zlib 1.2.13".
    public static let png = String(cString: tg_png_versions())
    /// e.g. "libjpeg-turbo 2.1.5 (API 62), lcms2 2.14".
    public static let jpeg = "\(String(cString: tg_jpeg_version())), \(ColorManagement.version)"
}
