/// How a stored image must be turned to be upright: the EXIF/TIFF `Orientation` tag (0x0112).
///
/// Each case is named after what the stored rows and columns are: `rightTop` (6) means the stored
/// row 0 is the visual right column and the stored column 0 is the visual top row, i.e. the camera
/// was turned and the image needs a 90° clockwise rotation. Cases 5…8 swap width and height.
public enum Orientation: Int, Sendable, Hashable, CaseIterable {
    /// 1: upright as stored.
    case topLeft = 1
    /// 2: mirrored left to right.
    case topRight = 2
    /// 3: upside down (rotate 180°).
    case bottomRight = 3
    /// 4: mirrored top to bottom.
    case bottomLeft = 4
    /// 5: transposed (mirrored across the main diagonal).
    case leftTop = 5
    /// 6: needs a 90° clockwise rotation.
    case rightTop = 6
    /// 7: transversed (mirrored across the anti-diagonal).
    case rightBottom = 7
    /// 8: needs a 90° counter-clockwise rotation.
    case leftBottom = 8

    /// What turns the stored image upright, in words (`thumbgen info`): "upright", "mirror
    /// horizontally", "rotate 180°", "mirror vertically", "transpose", "rotate 90° clockwise",
    /// "transverse", "rotate 90° counter-clockwise".
    public var name: String {
        switch self {
        case .topLeft: return "upright"
        case .topRight: return "mirror horizontally"
        case .bottomRight: return "rotate 180°"
        case .bottomLeft: return "mirror vertically"
        case .leftTop: return "transpose"
        case .rightTop: return "rotate 90° clockwise"
        case .rightBottom: return "transverse"
        case .leftBottom: return "rotate 90° counter-clockwise"
        }
    }

    /// True for 5…8: the upright image is `height` × `width` of the stored one.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The upright size of a stored `width` × `height` image.
    public func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Which upright axes run against the stored axis they come from: x for 2, 3, 6 and 7, y for
    /// 3, 4, 7 and 8 (read off `storedPosition`: the upright coordinate appears as `w - 1 - …` or
    /// `h - 1 - …`).
    var reversesUprightAxes: (x: Bool, y: Bool) {
        switch self {
        case .topLeft, .leftTop: return (false, false)
        case .topRight, .rightTop: return (true, false)
        case .bottomRight, .rightBottom: return (true, true)
        case .bottomLeft, .leftBottom: return (false, true)
        }
    }

    /// The stored pixel shown at upright position (`x`, `y`) of a stored `width` × `height` image.
    @inline(__always)
    func storedPosition(x: Int, y: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
        switch self {
        case .topLeft: return (x, y)
        case .topRight: return (w - 1 - x, y)
        case .bottomRight: return (w - 1 - x, h - 1 - y)
        case .bottomLeft: return (x, h - 1 - y)
        case .leftTop: return (y, x)
        case .rightTop: return (y, h - 1 - x)
        case .rightBottom: return (w - 1 - y, h - 1 - x)
        case .leftBottom: return (w - 1 - y, x)
        }
    }

    /// The upright image: `image` rotated and/or mirrored as this orientation says. Pixels are
    /// moved, never filtered, at the image's own bit depth.
    public func apply(to image: Image) -> Image {
        if self == .topLeft { return image }
        let size = uprightSize(width: image.width, height: image.height)
        switch image.samples {
        case .eight(let samples):
            return Image(width: size.width, height: size.height, rgba8: reorder(samples, image.width, image.height))
        case .sixteen(let samples):
            return Image(width: size.width, height: size.height, rgba16: reorder(samples, image.width, image.height))
        }
    }

    private func reorder<T: FixedWidthInteger>(_ samples: [T], _ w: Int, _ h: Int) -> [T] {
        let size = uprightSize(width: w, height: h)
        return [T](unsafeUninitializedCapacity: samples.count) { out, count in
            samples.withUnsafeBufferPointer { src in
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let s = storedPosition(x: x, y: y, width: w, height: h)
                        let from = (s.y * w + s.x) * 4, to = (y * size.width + x) * 4
                        out[to] = src[from]
                        out[to + 1] = src[from + 1]
                        out[to + 2] = src[from + 2]
                        out[to + 3] = src[from + 3]
                    }
                }
            }
            count = samples.count
        }
    }
}
