import CLibPNG
import Glibc

/// The libpng and zlib versions linked in, e.g. "libpng 1.6.39, zlib 1.2.13".
/// PNG file bytes (not pixels) can differ between zlib versions.
public enum PNGCodecVersions {
    public static var string: String { String(decoding: UnsafeRawBufferPointer(start: tg_png_versions(), count: strlen(tg_png_versions())), as: UTF8.self) }
}
