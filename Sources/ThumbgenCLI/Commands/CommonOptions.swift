import ThumbKit

/// Options several commands share, and how they turn into library settings.
enum CommonOptions {
    static let maxPixels = OptionSpec("max-pixels", value: "N",
        help: "Refuse images (and output canvases) over N pixels, from the header (default 250000000; 0 = no limit).")
    static let maxFileBytes = OptionSpec("max-file-bytes", value: "N",
        help: "Refuse files larger than N bytes, before and while reading (default 0 = no limit).")

    static let summary = OptionSpec("summary",
        help: "Print the summary line even when standard error is not a terminal.")

    static let maxMemory = OptionSpec("max-memory", value: "BYTES",
        help: "Refuse images one job would need more than BYTES to thumbnail, from the header (suffixes K, M, G; default: half of the memory the machine, container and ulimit allow, shared among the jobs; 0 = no limit).")

    /// `512M`, `2G`, `1048576`: bytes, with an optional binary K/M/G/T suffix.
    static func bytes(_ text: String) -> UInt64? {
        let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(text), multiplier: UInt64 = 1
        if let last = text.last?.uppercased().first, let unit = units[last] { digits = digits.dropLast(); multiplier = unit }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = UInt64(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }

    /// The limits for a run of `jobs` jobs: each job's memory budget is `--max-memory`, or its
    /// share of what the machine allows.
    static func limits(_ arguments: ParsedArguments, jobs: Int) throws(UsageError) -> DecodeLimits {
        var limits = try limits(arguments)
        limits.maxMemory = try arguments.value("max-memory", default: MemoryBudget.perJob(jobs: jobs),
                                               expected: "a number of bytes, e.g. 536870912 or 512M") { bytes($0) }
        return limits
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
