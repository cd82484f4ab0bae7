/// One encoded output the renderer made for a source.
package struct RenderedOutput: Sendable, Equatable {
    /// `""` for scale 1, `"@2x"`, `"@3x"`: matches `OutputNaming.suffix(forScale:)`.
    package var suffix: String
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// The file's bytes (PNG, JPEG or WebP), written as they are.
    package var bytes: [UInt8]
    /// SHA-256 (lower-case hex) of the straight RGBA8 pixels that were encoded: what a PNG decodes
    /// to, and what survives an encoder upgrade for every format.
    package var pixelSHA256: String
    /// The star rating drawn on it and where it was read, when the run draws rating badges.
    package var rating: RecordedRating?

    /// An output whose pixel hash the renderer already knows.
    package init(suffix: String, width: Int, height: Int, bytes: [UInt8], pixelSHA256: String) {
        self.suffix = suffix
        self.width = width
        self.height = height
        self.bytes = bytes
        self.pixelSHA256 = pixelSHA256
    }

    /// An output hashed from its RGBA8 pixels (`width * height * 4` bytes, row-major R G B A).
    package init(suffix: String, width: Int, height: Int, bytes: [UInt8], rgba8: [UInt8]) {
        self.init(suffix: suffix, width: width, height: height, bytes: bytes, pixelSHA256: SHA256.hex(rgba8))
    }

    /// An output for `image`, which was encoded as `bytes`; the pixel hash is of its RGBA8 samples.
    package init(suffix: String, image: Image, bytes: [UInt8]) {
        self.init(suffix: suffix, width: image.width, height: image.height, bytes: bytes, rgba8: image.rgba8)
    }
}
