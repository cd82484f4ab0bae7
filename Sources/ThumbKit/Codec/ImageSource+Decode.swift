extension ImageSource {
    /// The whole image as the thumbnailer sees it before resampling: upright (its orientation
    /// applied), converted to sRGB from its ICC profile or colour tags, at full size, 8 or 16 bits
    /// per channel. `limits` apply (pixels, file bytes, memory), checked before the pixels are
    /// allocated.
    ///
    /// What a golden test compares a thumbnail's source or a stored golden with:
    /// ```swift
    /// let golden = try ImageSource.file("Goldens/cat.png").decode()
    /// let comparison = ImageComparison(thumbnail.image, golden)
    /// ```
    public func decode(limits: DecodeLimits = .default) throws(DecodeError) -> Image {
        try IconPainter.decode(self, limits: limits).image
    }
}
