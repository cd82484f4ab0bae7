/// A photo's star rating as photo managers store it (XMP `xmp:Rating`, EXIF `Rating`): 0–5
/// stars, fractions allowed for half stars, or rejected (stored as −1). "No rating" is the
/// absence of a `Rating` (`Rating?` is nil), not a value of it.
public enum Rating: Sendable, Hashable, CustomStringConvertible {
    /// Marked as rejected (−1 in XMP and EXIF).
    case rejected
    /// Stars, in `Rating.starRange`; 0 is "rated, no stars" (Lightroom writes it for "unrated").
    case stars(Double)

    /// The stars a rating may have.
    public static let starRange: ClosedRange<Double> = 0...5

    /// The rating a stored number stands for: −1 is rejected, 0…5 stars; anything else (other
    /// negatives, above 5, not finite) is no rating at all.
    public init?(storedValue value: Double) {
        if value == -1 {
            self = .rejected
        } else if value.isFinite && Self.starRange.contains(value) {
            self = .stars(value)
        } else {
            return nil
        }
    }

    /// The number it is stored as: −1 for rejected, else the stars.
    public var storedValue: Double {
        switch self {
        case .rejected: return -1
        case .stars(let stars): return stars
        }
    }

    /// The stars, nil when rejected.
    public var stars: Double? {
        if case .stars(let stars) = self { return stars }
        return nil
    }

    /// As stored, shortest form: "-1", "0", "3", "4.5".
    public var description: String { Self.format(storedValue) }

    /// A number without a needless ".0": ratings are written the same in manifests, `info` and
    /// `sheet.json`.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// As manifests and sheet maps write it: a whole number without a fraction (`4`, `-1`), a
    /// half as a number (`4.5`).
    var jsonValue: JSONValue {
        let value = storedValue
        return value == value.rounded() ? .integer(Int64(value)) : .number(value)
    }
}
