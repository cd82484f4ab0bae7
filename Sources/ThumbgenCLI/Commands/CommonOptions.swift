import ThumbKit

/// Options several commands share, and how they turn into library settings.
enum CommonOptions {
    static let maxPixels = OptionSpec("max-pixels", value: "N",
        help: "Refuse images (and output canvases) over N pixels, from the header (default 250000000; 0 = no limit).")
    static let maxFileBytes = OptionSpec("max-file-bytes", value: "N",
        help: "Refuse files larger than N bytes, before and while reading (default 0 = no limit).")

    static let summary = OptionSpec("summary",
        help: "Print the summary line even when standard error is not a terminal.")

    /// Whether to print the summary line: asked for, or standard error is a terminal.
    static func showsSummary(_ arguments: ParsedArguments, console: Console) -> Bool {
        arguments.has("summary") || console.errIsTerminal
    }

    static func limits(_ arguments: ParsedArguments) throws(UsageError) -> DecodeLimits {
        var limits = DecodeLimits.default
        limits.maxPixels = try arguments.value("max-pixels", default: limits.maxPixels,
                                               expected: "a whole number of pixels") { UInt64($0) }
        limits.maxFileBytes = try arguments.value("max-file-bytes", default: limits.maxFileBytes,
                                                  expected: "a whole number of bytes") { UInt64($0) }
        return limits
    }
}
