import Glibc

/// One decoded image an icon set draws from (the master, or a stand-in), with the part of it that
/// is fitted: the whole image, or with `fitContent` the bounds of its visible pixels.
struct IconArt {
    /// Straight RGBA, upright, sRGB.
    let image: Image
    /// The region of `image` that is fitted into the content area.
    let content: Rect
    /// How far the art reaches from the centre of `content`, in image pixels: to the farthest
    /// corner of a visible pixel with `fitContent`, else to the region's corners. A round safe
    /// zone of radius R holds the art scaled by R / radius.
    let radius: Double

    /// The art of `image`; nil when `fitContent` finds no visible pixel.
    init?(image: Image, fitContent: Bool) {
        self.image = image
        guard fitContent else {
            content = Rect(width: image.width, height: image.height)
            radius = 0.5 * (Double(image.width * image.width + image.height * image.height)).squareRoot()
            return
        }
        let rgba = image.rgba8, width = image.width
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<width where rgba[(y * width + x) * 4 + 3] != 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        content = Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
        let cx = content.x + content.width / 2, cy = content.y + content.height / 2
        var farthest = 0.0
        for y in minY...maxY {
            // The farther horizontal and vertical edge of each pixel from the centre.
            let dy = max(abs(Double(y) - cy), abs(Double(y + 1) - cy))
            for x in minX...maxX where rgba[(y * width + x) * 4 + 3] != 0 {
                let dx = max(abs(Double(x) - cx), abs(Double(x + 1) - cx))
                farthest = max(farthest, dx * dx + dy * dy)
            }
        }
        radius = farthest.squareRoot()
    }

    /// The same art with every pixel in grey: the luminance of its linear-light colour
    /// (Rec. 709 weights, as sRGB's primaries are), encoded back to sRGB; alpha kept.
    func greyscale() -> IconArt {
        var rgba = image.rgba8
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let y = 0.2126 * SRGB.linear(fromByte: rgba[i]) + 0.7152 * SRGB.linear(fromByte: rgba[i + 1])
                + 0.0722 * SRGB.linear(fromByte: rgba[i + 2])
            let code = SRGB.byte(fromLinear: y)
            rgba[i] = code; rgba[i + 1] = code; rgba[i + 2] = code
        }
        return IconArt(image: Image(width: image.width, height: image.height, rgba8: rgba), content: content, radius: radius)
    }

    private init(image: Image, content: Rect, radius: Double) {
        self.image = image
        self.content = content
        self.radius = radius
    }

    /// The art fitted inside the square of `side` pixels at (`x`, `y`), centred (on whole pixels),
    /// drawn onto `canvas`.
    func draw(on canvas: inout Canvas, x: Int, y: Int, side: Int) {
        guard side > 0 else { return }
        let scale = min(Double(side) / content.width, Double(side) / content.height)
        let w = min(side, max(1, Int((content.width * scale).rounded()))), h = min(side, max(1, Int((content.height * scale).rounded())))
        place(on: &canvas, x: x + (side - w) / 2, y: y + (side - h) / 2, width: w, height: h)
    }

    /// The art scaled so that it reaches at most `radius` pixels from (`cx`, `cy`), centred there
    /// (on whole pixels), drawn onto `canvas`.
    func draw(on canvas: inout Canvas, cx: Double, cy: Double, radius limit: Double) {
        let scale = limit / self.radius
        let w = max(1, Int((content.width * scale).rounded(.down))), h = max(1, Int((content.height * scale).rounded(.down)))
        place(on: &canvas, x: Int((cx - Double(w) / 2).rounded()), y: Int((cy - Double(h) / 2).rounded()), width: w, height: h)
    }

    /// The art covering the square of `side` pixels at (`x`, `y`) (a layer drawn full bleed):
    /// scaled to fill it, cropped evenly where its shape differs.
    func cover(on canvas: inout Canvas, x: Int, y: Int, side: Int) {
        let scale = max(Double(side) / content.width, Double(side) / content.height)
        let cropW = Double(side) / scale, cropH = Double(side) / scale
        let region = Rect(x: content.x + (content.width - cropW) / 2, y: content.y + (content.height - cropH) / 2,
                          width: cropW, height: cropH)
        let bitmap = Resampler(kernel: .lanczos3, light: canvas.bitmap.light).resample(image, to: side, height: side, region: region)
        canvas.draw(bitmap, at: x, y: y)
    }

    private func place(on canvas: inout Canvas, x: Int, y: Int, width: Int, height: Int) {
        let bitmap = Resampler(kernel: .lanczos3, light: canvas.bitmap.light).resample(image, to: width, height: height, region: content)
        canvas.draw(bitmap, at: x, y: y)
    }
}
