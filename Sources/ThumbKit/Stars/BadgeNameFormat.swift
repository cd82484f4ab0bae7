/// How badge files are named: a format string with placeholders, plus a scale suffix.
///
/// Placeholders:
/// - `%r` — the rating: whole ratings without a decimal point (`4`), others in Swift's shortest
///   round-tripping decimal form (`4.5`, `2.25`);
/// - `%s` — `s` unless the rating is exactly 1 (for `1Star…` / `2Stars…`);
/// - `%%` — a literal `%`.
///
/// The default, `%rStar%sSmall`, gives `0StarsSmall`, `1StarSmall`, `2StarsSmall`, `4.5StarsSmall`.
/// File names append `@2x` / `@3x` for those scales, then `.png`: `2StarsSmall@2x.png`. In an asset
/// catalog the base name (without scale) names the image set: `2StarsSmall.imageset`.
package struct BadgeNameFormat: Sendable, Hashable {
    /// The default format, `%rStar%sSmall`.
    package static let `default` = BadgeNameFormat(unchecked: "%rStar%sSmall")

    /// The format string as given.
    package let format: String

    /// A validated format: only `%r`, `%s` and `%%` escapes, and the names it makes must be usable
    /// file names (no `/`, not empty, not starting with `.`).
    package init(_ format: String) throws(StarBadgeError) {
        var chars = format.makeIterator()
        while let c = chars.next() {
            guard c == "%" else { continue }
            guard let escape = chars.next() else {
                throw .invalidNameFormat(format: format, reason: "ends with a lone %")
            }
            guard escape == "r" || escape == "s" || escape == "%" else {
                throw .invalidNameFormat(format: format, reason: "unknown placeholder %\(escape) (use %r, %s or %%)")
            }
        }
        self.init(unchecked: format)
        for sample in [0.0, 1, 2.5] {
            let name = baseName(rating: sample)
            if name.isEmpty || name.contains("/") || name.hasPrefix(".") || name.contains("\0") {
                throw .invalidNameFormat(format: format, reason: "gives '\(name)', which is not a file name")
            }
        }
    }

    private init(unchecked format: String) {
        self.format = format
    }

    /// The name for a rating without scale suffix or extension (`4.5StarsSmall`).
    package func baseName(rating: Double) -> String {
        var out = ""
        var chars = format.makeIterator()
        while let c = chars.next() {
            guard c == "%", let escape = chars.next() else {
                out.append(c)
                continue
            }
            switch escape {
            case "r": out += Self.text(forRating: rating)
            case "s": out += rating == 1 ? "" : "s"
            default: out.append(escape)
            }
        }
        return out
    }

    /// The PNG file name for a rating at a scale (1…3): base name, `@2x`/`@3x` when scale > 1,
    /// `.png`.
    package func fileName(rating: Double, scale: Int) -> String {
        baseName(rating: rating) + (scale == 1 ? "" : "@\(scale)x") + ".png"
    }

    /// A rating as names and messages show it: `4`, `4.5`.
    static func text(forRating rating: Double) -> String {
        if rating == rating.rounded() && abs(rating) < 1e15 { return String(Int(rating)) }
        return String(rating)
    }
}
