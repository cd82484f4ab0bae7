import ThumbKit

/// What a command line said: option values by long name, in order, and positional arguments.
struct ParsedArguments: Sendable, Equatable {
    /// Every value given for each option that takes one, in command-line order.
    var values: [String: [String]] = [:]
    /// How many times each flag was given.
    var flags: [String: Int] = [:]
    var positionals: [String] = []
    /// `positionals` as the bytes given, for arguments that name files.
    var positionalPaths: [FilePath] = []
    /// `values` as the bytes given, for options whose value names a file.
    var valuePaths: [String: [FilePath]] = [:]

    func has(_ flag: String) -> Bool { (flags[flag] ?? 0) > 0 }

    /// The last value given for an option (later ones override earlier ones, as in GNU tools).
    func value(_ option: String) -> String? { values[option]?.last }

    /// The last value given for an option, as the bytes given (a file name).
    func path(_ option: String) -> FilePath? { valuePaths[option]?.last }

    /// The value converted by `convert`, or `defaultValue` when absent; a conversion that returns
    /// nil is a usage error that names the option and what it expects.
    func value<T>(_ option: String, default defaultValue: T, expected: String,
                  _ convert: (String) -> T?) throws(UsageError) -> T {
        guard let text = value(option) else { return defaultValue }
        guard let converted = convert(text) else { throw .invalidValue(option, text, expected: expected) }
        return converted
    }

    /// The value converted by `convert`, or nil when absent; a conversion that returns nil is a
    /// usage error. (`value(_:default: nil, …)` would take a failed conversion for "absent".)
    func optionalValue<T>(_ option: String, expected: String, _ convert: (String) -> T?) throws(UsageError) -> T? {
        guard let text = value(option) else { return nil }
        guard let converted = convert(text) else { throw .invalidValue(option, text, expected: expected) }
        return converted
    }
}
