/// One file of an icon set, made.
package struct RenderedIconFile: Sendable, Equatable {
    /// The path below the set's output folder.
    package let path: String
    /// png, ico, icns, json, xml, html or webmanifest.
    package let format: String
    package let bytes: [UInt8]
    /// The largest picture's size (0 for text).
    package let width: Int
    package let height: Int
    /// SHA-256 of the straight RGBA8 pixels of every picture in the file, in order (what survives
    /// an encoder upgrade); for text, of the bytes.
    package let pixelSHA256: String
}
