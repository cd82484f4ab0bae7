/// Renders `--help` in the layout swift-argument-parser made familiar: OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, each option with its one-sentence help aligned in a column, then the
/// footer and EXAMPLES. The same value renders the command's man page (`ManPage`), which also
/// holds the `manual` sections too long for `--help`.
struct HelpText {
    let overview: String
    let usage: [String]
    let arguments: [(name: String, help: String)]
    let options: [OptionSpec]
    var footer: String = ""
    /// Command lines with what each does, shown under EXAMPLES.
    var examples: [(command: String, explanation: String)] = []
    /// The commands and their one-line summaries (the default command's help lists them all).
    var commands: [(name: String, summary: String)] = []
    /// Sections only the man page has, titled as man pages title them (`LIMITS AND MEMORY`).
    var manual: [(title: String, text: String)] = []

    /// The option every command takes without listing it in its table.
    static let helpOption = OptionSpec("help", short: "h", help: "Show help information.")

    func render() -> String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: " + usage.joined(separator: "\n       "), ""]
        if !commands.isEmpty {
            lines.append("COMMANDS:")
            for command in commands { lines.append(Self.row(command.name, command.summary)) }
            lines.append("")
        }
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            for argument in arguments { lines.append(Self.row(argument.name, argument.help)) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for option in options {
            var label = option.short.map { "-\($0), " } ?? ""
            label += "--\(option.long)"
            if let value = option.valueName { label += " <\(value)>" }
            lines.append(Self.row(label, option.help))
        }
        lines.append(Self.row("-h, --help", Self.helpOption.help))
        if !footer.isEmpty { lines += ["", footer] }
        if !examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            for example in examples { lines += ["  " + example.command, "      " + example.explanation] }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ label: String, _ help: String) -> String {
        let column = 28
        let padded = "  " + label
        if padded.count + 2 <= column {
            return padded + String(repeating: " ", count: column - padded.count) + help
        }
        return padded + "\n" + String(repeating: " ", count: column) + help
    }
}
