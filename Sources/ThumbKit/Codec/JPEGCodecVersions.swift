import CLibJPEG

/// The libjpeg and lcms2 versions linked in, e.g. "libjpeg-turbo 2.1.5 (API 62), lcms2 2.14":
/// decoded JPEG pixels and colour conversions can differ between versions.
public enum JPEGCodecVersions {
    /// The versions as one line, part of `ThumbnailOptions.canonicalDescription`.
    public static var string: String { "\(String(cString: tg_jpeg_version())), \(ColorManagement.version)" }
}
