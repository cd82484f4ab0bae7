extension ThumbnailSize {
    /// Which way a fit may change the source's scale (ImageMagick's `>` and `<` geometry flags).
    public enum ScaleRule: Sendable, Hashable, CaseIterable {
        /// Only reduce (the default, `WxH>`): a source already within the box keeps its size.
        case shrinkOnly
        /// Only enlarge (`WxH<`): a source larger than the box keeps its size.
        case enlargeOnly
        /// Scale either way (`enlarge: true`).
        case any
    }
}
