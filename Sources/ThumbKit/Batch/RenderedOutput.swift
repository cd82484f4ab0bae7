/// One encoded output the renderer made for a source.
package struct RenderedOutput: Sendable, Equatable {
    /// Which of the source's requests it answers (`BatchSource.requests`).
    package var request: Int
    /// Which output of that request it is.
    package var variant: ThumbnailVariant
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
    /// The source's upright size as the set saw it, recorded for sets named by width.
    package var sourceWidth: Int?
    package var sourceHeight: Int?
    /// For a file of an icon set: its path below the set's output folder, and its format (png,
    /// ico, icns, json, xml, html, webmanifest).
    package var iconFile: String?
    package var fileFormat: String?
    /// The source's placeholders by kind, when its set asks for any (`ThumbnailSet.placeholders`).
    package var placeholders: [String: String]?

    /// An output whose pixel hash the renderer already knows.
    package init(request: Int = 0, variant: ThumbnailVariant, width: Int, height: Int, bytes: [UInt8], pixelSHA256: String) {
        self.request = request
        self.variant = variant
        self.width = width
        self.height = height
        self.bytes = bytes
        self.pixelSHA256 = pixelSHA256
    }

    /// An output for `image`, which was encoded as `bytes`; the pixel hash is of its RGBA8 samples.
    package init(request: Int = 0, variant: ThumbnailVariant, image: Image, bytes: [UInt8]) {
        self.init(request: request, variant: variant, width: image.width, height: image.height, bytes: bytes,
                  pixelSHA256: SHA256.hex(image.rgba8))
    }
}

/// Everything the renderer made of one source.
package struct BatchRendering: Sendable {
    /// One output per variant of every request.
    package var outputs: [RenderedOutput]
    /// Problems with the source that did not stop it, each once, in order: printed as warnings.
    package var warnings: [String]

    package init(outputs: [RenderedOutput], warnings: [String] = []) {
        self.outputs = outputs
        self.warnings = warnings
    }
}
