/// Drawing a decoded image into a destination rectangle, as an iOS app draws a photo into an
/// offscreen context: the image is resampled to the rectangle's size with the given filter (in
/// the canvas's light encoding, premultiplied) and composited source-over at its position, through
/// the current clip.
extension Canvas {
    /// Draws `image` scaled to `width` × `height` pixels with its top-left corner at (`x`, `y`).
    /// Whole-pixel destinations keep the result exact: no second resampling for a sub-pixel
    /// offset. `kernel` defaults to Lanczos-3; an unscaled image is copied pixel for pixel.
    public mutating func draw(_ image: Image, x: Int, y: Int, width: Int, height: Int,
                              kernel: ResamplingKernel = .lanczos3) {
        precondition(width > 0 && height > 0, "destination size must be positive")
        let scaled = Resampler(kernel: kernel, light: bitmap.light).resample(image, to: width, height: height)
        draw(scaled, at: x, y: y)
    }
}
