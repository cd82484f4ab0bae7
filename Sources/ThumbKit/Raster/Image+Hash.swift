extension Image {
    /// SHA-256 (lower-case hex) of the image's straight RGBA8 samples, row-major (`rgba8`): the
    /// pixel hash a manifest records for an output (`pixelSHA256`). It does not depend on the
    /// encoder, so it holds across libdeflate, libjpeg-turbo and libwebp versions; 16-bit images
    /// are hashed at 8 bits, as they are encoded.
    public var pixelHash: String { SHA256.hex(rgba8) }
}

extension Thumbnail {
    /// The pixel hash of the encoded picture (`image.pixelHash`): the manifest's `pixelSHA256`.
    public var pixelHash: String { image.pixelHash }

    /// SHA-256 (lower-case hex) of the encoded file's bytes: the manifest's `fileSHA256`. It also
    /// depends on the encoder's version (libdeflate, libjpeg-turbo, libwebp).
    public var fileHash: String { SHA256.hex(bytes) }
}
