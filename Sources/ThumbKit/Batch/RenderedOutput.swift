/// One encoded output the renderer made for a source.
package struct RenderedOutput: Sendable, Equatable {
    /// `""` for scale 1, `"@2x"`, `"@3x"`: matches `OutputNaming.suffix(forScale:)`.
    package var suffix: String
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// The PNG file's bytes, written as they are.
    package var png: [UInt8]
    /// SHA-256 (lower-case hex) of the straight RGBA8 pixels the PNG decodes to.
    package var pixelSHA256: String

    /// An output whose pixel hash the renderer already knows.
    package init(suffix: String, width: Int, height: Int, png: [UInt8], pixelSHA256: String) {
        self.suffix = suffix
        self.width = width
        self.height = height
        self.png = png
        self.pixelSHA256 = pixelSHA256
    }

    /// An output hashed from its RGBA8 pixels (`width * height * 4` bytes, row-major R G B A).
    package init(suffix: String, width: Int, height: Int, png: [UInt8], rgba8: [UInt8]) {
        self.init(suffix: suffix, width: width, height: height, png: png, pixelSHA256: SHA256.hex(rgba8))
    }

    /// An output for `image`, which was encoded as `png`; the pixel hash is of its RGBA8 samples.
    package init(suffix: String, image: Image, png: [UInt8]) {
        self.init(suffix: suffix, width: image.width, height: image.height, png: png, rgba8: image.rgba8)
    }
}
