/// One option a command accepts: `--long`, optionally `-s`, with or without a value.
struct OptionSpec: Sendable {
    let long: String
    let short: Character?
    /// The placeholder shown in help for the value (`N`, `DIR`); nil for a flag.
    let valueName: String?
    /// One sentence for `--help`.
    let help: String

    init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
    }

    var takesValue: Bool { valueName != nil }
}
