/// A colour with straight (non-premultiplied) alpha, 8 bits per channel, sRGB-encoded.
///
/// This is the type users write (`ff8800`, `ffffff80`); `Bitmap` never stores it directly.
/// Conversion to the premultiplied working form happens in one place: `premultiplied(in:)`.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    /// Red, sRGB-encoded, 0...255.
    public var red: UInt8
    /// Green, sRGB-encoded, 0...255.
    public var green: UInt8
    /// Blue, sRGB-encoded, 0...255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) ... 255 (opaque); the colour channels are not multiplied by it.
    public var alpha: UInt8

    /// A colour from its channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// (0, 0, 0, 0): nothing at all.
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black, `000000`.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white, `ffffff`.
    public static let white = Color(red: 255, green: 255, blue: 255)

    /// Parses `RRGGBB` or `RRGGBBAA` hexadecimal, with an optional leading `#`, any case.
    package init(hex text: String) throws(ColorParseError) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8,
              digits.allSatisfy({ $0.isHexDigit && $0.isASCII }),
              let value = UInt32(digits, radix: 16)
        else { throw ColorParseError(text: text) }
        if digits.count == 6 {
            self.init(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
        } else {
            self.init(red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xff),
                      blue: UInt8(value >> 8 & 0xff), alpha: UInt8(value & 0xff))
        }
    }

    /// `rrggbb` when opaque, `rrggbbaa` otherwise.
    public var description: String {
        func hex(_ v: UInt8) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        return hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }

    /// The colour as premultiplied channels in `Bitmap`'s working form for the given light encoding.
    public func premultiplied(in light: Bitmap.LightEncoding) -> SIMD4<Float> {
        let a = Float(alpha) / 255
        let channels = [red, green, blue].map { value -> Float in
            light == .linear ? SRGB.linear(fromByte: value) : Float(value) / 255
        }
        return SIMD4(channels[0] * a, channels[1] * a, channels[2] * a, a)
    }
}

/// A colour string that is not `RRGGBB` or `RRGGBBAA` hexadecimal.
package struct ColorParseError: ThumbKitError, Equatable {
    /// The text that was given.
    package let text: String
    /// One line naming the text and the forms expected.
    package var message: String { "'\(text)' is not a colour (expected RRGGBB or RRGGBBAA hex)" }
}
