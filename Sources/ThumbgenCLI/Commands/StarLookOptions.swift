import ThumbKit

/// The options that say how stars look, shared by `thumbgen stars` and the rating badges of the
/// thumbnail and sheet commands, so a badge on a thumbnail can match a badge file exactly.
enum StarLookOptions {
    static let options: [OptionSpec] = [
        OptionSpec("fill", value: "COLOR", help: "Colour of filled stars, RRGGBB or RRGGBBAA (default ff9500)."),
        OptionSpec("empty", value: "COLOR", help: "Colour of empty stars, or none to leave them out (default none)."),
        OptionSpec("outline", value: "COLOR", help: "Outline colour inside every star's edge, or none (default ff9500)."),
        OptionSpec("outline-width", value: "PX", help: "Outline width at @1x in pixels (default 1; badges: a sixteenth of the cell)."),
        OptionSpec("half", help: "Half stars: also draw the half ratings 0.5 … 4.5 (fill mode half)."),
        OptionSpec("fill-mode", value: "MODE", help: "full (round to whole stars), half (to halves) or precise (exact fraction)."),
    ]

    /// The options' names, for refusing them where they do not apply.
    static var names: [String] { options.map(\.long) }

    /// The colours given, as `StarBadgeSpec`'s parsers read them (errors name the option).
    static func colors(_ arguments: ParsedArguments) throws(StarBadgeError) -> (fill: Color?, empty: Color??, outline: Color??) {
        (try arguments.value("fill").map { text throws(StarBadgeError) in try StarBadgeSpec.parseColor(text, field: "fill") },
         try arguments.value("empty").map { text throws(StarBadgeError) in try StarBadgeSpec.parseOptionalColor(text, field: "empty") },
         try arguments.value("outline").map { text throws(StarBadgeError) in try StarBadgeSpec.parseOptionalColor(text, field: "outline") })
    }

    /// `--outline-width`, when given.
    static func outlineWidth(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
        try arguments.optionalValue("outline-width", expected: "a number of pixels") { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    }

    /// `--fill-mode`, else `half` for `--half`, else nil.
    static func fillMode(_ arguments: ParsedArguments) throws(StarBadgeError) -> StarBadge.FillMode? {
        if let text = arguments.value("fill-mode") { return try StarBadgeSpec.parseFillMode(text) }
        return arguments.has("half") ? .half : nil
    }
}
