/// Straight-alpha RGBA samples as a file stores them: sRGB-encoded, 8 or 16 bits per channel.
///
/// Invariants: `width > 0`, `height > 0`, and the sample array holds exactly `width * height * 4`
/// values in row-major order, channels in the order red, green, blue, alpha.
/// This is what the decoder produces and the encoder consumes; drawing and filtering happen on
/// `Bitmap`.
public struct Image: Sendable, Equatable {
    /// The samples at the depth the file stored them, `width * height * 4` of them.
    public enum Samples: Sendable, Equatable {
        /// 8 bits per channel, 0...255.
        case eight([UInt8])
        /// 16 bits per channel, 0...65535.
        case sixteen([UInt16])
    }

    /// Columns, > 0.
    public let width: Int
    /// Rows, > 0.
    public let height: Int
    /// Straight-alpha R G B A samples, row-major.
    public let samples: Samples

    /// An 8-bit image; `rgba8` must hold exactly `width * height * 4` samples (checked).
    public init(width: Int, height: Int, rgba8: [UInt8]) {
        precondition(width > 0 && height > 0 && rgba8.count == width * height * 4, "RGBA8 size mismatch")
        self.width = width
        self.height = height
        self.samples = .eight(rgba8)
    }

    /// A 16-bit image; `rgba16` must hold exactly `width * height * 4` samples (checked).
    public init(width: Int, height: Int, rgba16: [UInt16]) {
        precondition(width > 0 && height > 0 && rgba16.count == width * height * 4, "RGBA16 size mismatch")
        self.width = width
        self.height = height
        self.samples = .sixteen(rgba16)
    }

    /// 8 or 16.
    public var bitDepth: Int {
        if case .eight = samples { return 8 }
        return 16
    }

    /// The samples at 8 bits per channel; 16-bit samples round as `(v * 255 + 32767) / 65535`.
    public var rgba8: [UInt8] {
        switch samples {
        case .eight(let values):
            return values
        case .sixteen(let values):
            return values.map(Image.byte(fromSample16:))
        }
    }

    /// This image at 8 bits per channel (itself when it already is).
    public func converted8() -> Image {
        bitDepth == 8 ? self : Image(width: width, height: height, rgba8: rgba8)
    }

    /// The 16-bit to 8-bit rule used everywhere: exact rounding to nearest.
    @inline(__always)
    public static func byte(fromSample16 value: UInt16) -> UInt8 {
        UInt8((UInt32(value) * 255 + 32767) / 65535)
    }
}
