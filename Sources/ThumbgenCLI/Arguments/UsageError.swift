import ThumbKit

/// A command line that cannot be run as written; the CLI exits 64 (EX_USAGE).
struct UsageError: ThumbKitError, Equatable {
    let message: String

    init(_ message: String) { self.message = message }

    /// A library error about options, with each field it names written as its flag.
    init(_ error: some OptionError, flags renamed: [String: String] = [:]) {
        message = error.commandLineMessage(flags: renamed)
    }

    static func invalidValue(_ option: String, _ value: String, expected: String) -> UsageError {
        UsageError("invalid value '\(PathEscaping.singleLine(value))' for --\(option): expected \(expected)")
    }
}

extension OptionError {
    /// The message with each field written as the flag that sets it: the field in kebab case
    /// (`outlineWidth` → `--outline-width`), or as `renamed` says where a flag is named otherwise
    /// (`thumbgen sheet`'s `--cell` sets `thumbnail.size`).
    func commandLineMessage(flags renamed: [String: String] = [:]) -> String {
        message(naming: { field in renamed[field] ?? "--" + field.kebabCased })
    }
}

extension String {
    /// `outlineWidth` → `outline-width`.
    var kebabCased: String {
        var out = ""
        for c in self {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}
