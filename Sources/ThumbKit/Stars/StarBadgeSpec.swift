/// Everything that defines a set of badge files: the badge look, which ratings, which scales, and
/// how files are named. This is what `thumbgen stars` builds from its options and what
/// `Assets/stars/badge-spec.json` stores.
///
/// Command-line mapping (each option's parser below throws a `StarBadgeError` naming it):
///
/// | option                     | field          | parser                      | default          |
/// |----------------------------|----------------|-----------------------------|------------------|
/// | `--slots N`                | `slots`        | `Int`                       | 5                |
/// | `--size PX`                | `size`         | `Int`                       | 16               |
/// | `--spacing PX`             | `spacing`      | `Int`                       | 1                |
/// | `--fill RRGGBB[AA]`        | `fill`         | `parseColor(_:field:)`     | `ff9500`         |
/// | `--empty RRGGBB[AA]\|none` | `empty`        | `parseOptionalColor`        | none             |
/// | `--outline RRGGBB[AA]\|none`| `outline`     | `parseOptionalColor`        | `ff9500`         |
/// | `--outline-width PX`       | `outlineWidth` | `Double`                    | 1                |
/// | `--fill-mode M`            | `fillMode`     | `parseFillMode`             | full             |
/// | `--half`                   | `ratings`, `fillMode` | `withHalfRatings()`  | off              |
/// | `--ratings LIST`           | `ratings`      | `parseRatings`              | 1,2,…,slots      |
/// | `--scales LIST`            | `scales`       | `parseScales`               | 1,2,3            |
/// | `--name FORMAT`            | `nameFormat`   | `BadgeNameFormat.init`      | `%rStar%sSmall`  |
///
/// `--half` means "also make the half ratings": ratings become 0.5, 1, 1.5, …, slots and the fill
/// mode becomes `half` (an explicit `--fill-mode` or `--ratings` wins). Out-of-range numbers are
/// reported when the spec is validated (`StarBadgeSet(spec:)`), again naming the option.
package struct StarBadgeSpec: Sendable, Hashable {
    /// Number of star cells, in `StarBadge.slotRange`.
    package var slots: Int = 5
    /// Cell side at @1x, pixels, in `StarBadge.sizeRange`.
    package var size: Int = 16
    /// Gap between cells at @1x, pixels, in `StarBadge.spacingRange`.
    package var spacing: Int = 1
    /// Filled colour.
    package var fill: Color = StarBadge.defaultColor
    /// Empty colour, nil for transparent.
    package var empty: Color? = nil
    /// Outline colour, nil for none.
    package var outline: Color? = StarBadge.defaultColor
    /// Outline width at @1x, pixels: at least 0, under 0.1545·`size` (see `StarBadge`).
    package var outlineWidth: Double = 1
    /// How fractional ratings fill stars.
    package var fillMode: StarBadge.FillMode = .full
    /// The ratings to make, in output order, each in 0…`slots`; nil means 1…slots.
    package var ratings: [Double]? = nil
    /// The scales to make, in output order: each in `StarBadge.scaleRange`, none twice.
    package var scales: [Int] = [1, 2, 3]
    /// The file name format.
    package var nameFormat: BadgeNameFormat = .default

    /// The default spec: every field at the default shown above (`thumbgen stars` itself starts
    /// from scales `[1]`).
    package init() {}

    /// The ratings that will be made: `ratings`, or 1…slots when none were given.
    package var effectiveRatings: [Double] {
        ratings ?? (1...max(slots, 1)).map(Double.init)
    }

    /// This spec with ratings 0.5, 1, 1.5, …, slots and the `half` fill mode (`--half`).
    package func withHalfRatings() -> StarBadgeSpec {
        var copy = self
        copy.ratings = (1...(2 * max(slots, 1))).map { Double($0) / 2 }
        copy.fillMode = .half
        return copy
    }

    /// The badge for one rating (validated).
    func badge(rating: Double) throws(StarBadgeError) -> StarBadge {
        try StarBadge(rating: rating, slots: slots, size: size, spacing: spacing, fill: fill, empty: empty,
                      outline: outline, outlineWidth: outlineWidth, fillMode: fillMode)
    }

    // MARK: Option parsers

    /// Parses a required colour, `RRGGBB` or `RRGGBBAA` (optional `#`).
    package static func parseColor(_ text: String, field: String) throws(StarBadgeError) -> Color {
        do { return try Color(hex: text) } catch { throw .malformedColor(field: field, text: text) }
    }

    /// Parses a colour or `none` (nil).
    package static func parseOptionalColor(_ text: String, field: String) throws(StarBadgeError) -> Color? {
        text.lowercased() == "none" ? nil : try parseColor(text, field: field)
    }

    /// Parses a comma-separated list of ratings (`1,2,4.5`); range is checked at validation.
    package static func parseRatings(_ text: String) throws(StarBadgeError) -> [Double] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingSpacesAndTabs() }
        var out: [Double] = []
        for item in items {
            guard let value = Double(item), value.isFinite else { throw .malformedRating(text: text) }
            out.append(value)
        }
        return out
    }

    /// Parses a comma-separated list of scales, each `1`, `2` or `3` (an `x` suffix is allowed:
    /// `1x,2x`); duplicates are dropped, order kept.
    package static func parseScales(_ text: String) throws(StarBadgeError) -> [Int] {
        var out: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            var digits = item.trimmingSpacesAndTabs().lowercased()
            if digits.hasSuffix("x") { digits.removeLast() }
            guard let scale = Int(digits), StarBadge.scaleRange.contains(scale) else {
                throw .invalidScale(text: String(item))
            }
            if !out.contains(scale) { out.append(scale) }
        }
        return out
    }

    /// Parses `full`, `half` or `precise`.
    package static func parseFillMode(_ text: String) throws(StarBadgeError) -> StarBadge.FillMode {
        guard let mode = StarBadge.FillMode(rawValue: text.lowercased()) else { throw .invalidFillMode(text: text) }
        return mode
    }

    // MARK: JSON

    /// Reads a spec from JSON with any of the keys `slots`, `size`, `spacing` (integers), `fill`,
    /// `empty`, `outline` (colour strings; `none` for the last two), `outlineWidth` (number),
    /// `fillMode` (`full`/`half`/`precise`), `ratings` (array of numbers), `scales` (array of
    /// 1/2/3), `name` (format string). Missing keys (and `null` values) keep their defaults;
    /// unknown keys are errors, the first in sorted order named. Every type is checked before any
    /// value is, so a spec with both kinds of mistake reports the type.
    package init(json bytes: [UInt8]) throws(StarBadgeError) {
        let document: JSONValue
        do { document = try JSONParser.parse(Self.withoutByteOrderMark(bytes)) } catch {
            throw .malformedSpec(reason: "not valid JSON")
        }
        guard case .object(let members) = document else { throw .malformedSpec(reason: "top level is not an object") }
        if let unknown = members.keys.sorted().first(where: { !SpecFile.keys.contains($0) }) {
            throw .malformedSpec(reason: "unknown key '\(unknown)'")
        }
        let file = try SpecFile(members)
        self.init()
        if let v = file.slots { slots = v }
        if let v = file.size { size = v }
        if let v = file.spacing { spacing = v }
        if let v = file.fill { fill = try Self.parseColor(v, field: "fill") }
        if let v = file.empty { empty = try Self.parseOptionalColor(v, field: "empty") }
        if let v = file.outline { outline = try Self.parseOptionalColor(v, field: "outline") }
        if let v = file.outlineWidth { outlineWidth = v }
        if let v = file.fillMode { fillMode = try Self.parseFillMode(v) }
        if let v = file.ratings { ratings = v }
        if let v = file.scales {
            scales = []
            for s in v {
                guard StarBadge.scaleRange.contains(s) else { throw .invalidScale(text: String(s)) }
                scales.append(s)
            }
        }
        if let v = file.name { nameFormat = try BadgeNameFormat(v) }
    }

    /// Editors on some systems start UTF-8 files with a byte order mark; it is not JSON.
    private static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// The spec file's members with their types checked, in this order; every key optional.
    private struct SpecFile {
        static let keys: Set<String> = [
            "slots", "size", "spacing", "fill", "empty", "outline", "outlineWidth", "fillMode", "ratings", "scales", "name",
        ]
        var slots: Int?, size: Int?, spacing: Int?
        var fill: String?, empty: String?, outline: String?
        var outlineWidth: Double?
        var fillMode: String?
        var ratings: [Double]?
        var scales: [Int]?
        var name: String?

        init(_ members: [String: JSONValue]) throws(StarBadgeError) {
            func member<T>(_ key: String, _ convert: (JSONValue) -> T?) throws(StarBadgeError) -> T? {
                guard let value = members[key], value != .null else { return nil }
                guard let converted = convert(value) else { throw .malformedSpec(reason: "'\(key)' has the wrong type") }
                return converted
            }
            slots = try member("slots", Self.integer)
            size = try member("size", Self.integer)
            spacing = try member("spacing", Self.integer)
            fill = try member("fill", \.stringValue)
            empty = try member("empty", \.stringValue)
            outline = try member("outline", \.stringValue)
            outlineWidth = try member("outlineWidth", \.numberValue)
            fillMode = try member("fillMode", \.stringValue)
            ratings = try member("ratings") { Self.array($0, of: \.numberValue) }
            scales = try member("scales") { Self.array($0, of: Self.integer) }
            name = try member("name", \.stringValue)
        }

        /// Written without fraction or exponent, as `json` writes them.
        private static func integer(_ value: JSONValue) -> Int? { value.integerValue.flatMap { Int(exactly: $0) } }

        /// An array whose every element converts.
        private static func array<T>(_ value: JSONValue, of convert: (JSONValue) -> T?) -> [T]? {
            guard let elements = value.arrayValue else { return nil }
            let converted = elements.compactMap(convert)
            return converted.count == elements.count ? converted : nil
        }
    }

    /// The spec as JSON with every key, sorted, one per line, ending in a newline: deterministic.
    package var json: String {
        func color(_ c: Color?) -> String { JSONWriter.literal(c.map { $0.description } ?? "none") }
        func number(_ d: Double) -> String { BadgeNameFormat.text(forRating: d) }
        var lines: [String] = []
        lines.append("\"empty\": \(color(empty))")
        lines.append("\"fill\": \(color(fill))")
        lines.append("\"fillMode\": \"\(fillMode.rawValue)\"")
        lines.append("\"name\": \(JSONWriter.literal(nameFormat.format))")
        lines.append("\"outline\": \(color(outline))")
        lines.append("\"outlineWidth\": \(number(outlineWidth))")
        lines.append("\"ratings\": [\(effectiveRatings.map(number).joined(separator: ", "))]")
        lines.append("\"scales\": [\(scales.map(String.init).joined(separator: ", "))]")
        lines.append("\"size\": \(size)")
        lines.append("\"slots\": \(slots)")
        lines.append("\"spacing\": \(spacing)")
        return "{\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n}\n"
    }
}
