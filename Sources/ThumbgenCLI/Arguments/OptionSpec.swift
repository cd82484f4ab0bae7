/// One option a command accepts: `--long`, optionally `-s`, with or without a value. The same
/// table parses the arguments, renders `--help`, the man pages and the shell completions, so none
/// of them can drift from what is accepted.
struct OptionSpec: Sendable {
    let long: String
    let short: Character?
    /// The placeholder shown in help for the value (`N`, `DIR`); nil for a flag.
    let valueName: String?
    /// One sentence for `--help`.
    let help: String
    /// The words the value may be, for completions (empty: any value).
    let choices: [String]

    init(_ long: String, short: Character? = nil, value: String? = nil, choices: [String] = [], help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.choices = choices
        self.help = help
    }

    var takesValue: Bool { valueName != nil }

    /// What a shell should offer for the value.
    enum ValueKind: Equatable {
        case directory, file, words([String]), anything
    }

    var valueKind: ValueKind {
        if !choices.isEmpty { return .words(choices) }
        switch valueName {
        case "DIR": return .directory
        case "FILE", "PATH", "FILE|-", "DEST": return .file
        default: return .anything
        }
    }
}
