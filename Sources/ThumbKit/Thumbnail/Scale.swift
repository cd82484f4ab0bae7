/// A display scale: @1x, @2x, @3x, or Android's @0.75x and @1.5x. An output at scale N is exactly N
/// times the @1x output in both dimensions (rounded half up where N is not whole), so an app never
/// gets an asset of the wrong size.
///
/// Kept in thousandths, exactly: `1.5` is 1500/1000, and every size computed from a scale is
/// integer arithmetic, the same on every machine.
public struct Scale: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The scale times 1000.
    public let thousandths: Int

    /// The largest scale (@8x; asset catalogs go to @3x, Android to @4x).
    public static let maximum = Scale(8)
    /// @1x.
    public static let one = Scale(1)

    /// A whole scale: `Scale(2)` is @2x.
    public init(_ whole: Int) {
        thousandths = whole * 1000
    }

    /// A whole scale written as a number: `let scale: Scale = 2`.
    public init(integerLiteral whole: Int) {
        self.init(whole)
    }

    /// A scale of `thousandths` / 1000.
    public init(thousandths: Int) {
        self.thousandths = thousandths
    }

    /// Parses `2`, `1.5`, `0.75` (at most three decimals, above 0, at most `maximum`); nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 3, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var value = Int(whole)! * 1000
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            value += Int(fraction + String(repeating: "0", count: 3 - fraction.count))!
        }
        guard value > 0, value <= Scale.maximum.thousandths else { return nil }
        thousandths = value
    }

    /// The scale as a whole number, when it is one (nil for 1.5).
    public var wholeValue: Int? { thousandths % 1000 == 0 ? thousandths / 1000 : nil }

    /// `2`, `1.5`, `0.75`: the shortest decimal form, as `--scales` takes it.
    public var description: String {
        let whole = thousandths / 1000, fraction = thousandths % 1000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// The file-name suffix: `""` at @1x, `@2x`, `@1.5x` (Apple's convention, which web tooling
    /// and Android exporters share).
    public var suffix: String { self == .one ? "" : "@\(description)x" }

    /// `length` at this scale, rounded half up, at least 1 when `length` is.
    public func apply(to length: Int) -> Int {
        guard length > 0 else { return 0 }
        return max(1, (length * thousandths + 500) / 1000)
    }

    /// `length` at this scale without rounding, for lengths that may be fractional (a radius).
    public func apply(to length: Double) -> Double {
        length * Double(thousandths) / 1000
    }

    public static func < (a: Scale, b: Scale) -> Bool { a.thousandths < b.thousandths }
}
