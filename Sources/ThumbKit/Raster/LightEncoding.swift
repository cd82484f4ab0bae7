extension Bitmap {
    /// How the colour channels of a `Bitmap` relate to light.
    public enum LightEncoding: Sendable, Hashable {
        /// Channels are proportional to light intensity (sRGB primaries, linear transfer). Filtering and
        /// compositing here are physically right: a 50% mix of black and white is as bright as the average.
        case linear
        /// Channels hold the sRGB-encoded values directly, as most tools filter (`--no-linear`).
        case sRGB
    }
}
