/// Renders `--help` in the layout swift-argument-parser made familiar: OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, each option with its one-sentence help aligned in a column.
struct HelpText {
    let overview: String
    let usage: [String]
    let arguments: [(name: String, help: String)]
    let options: [OptionSpec]
    var footer: String = ""

    func render() -> String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: " + usage.joined(separator: "\n       "), ""]
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
        lines.append(Self.row("-h, --help", "Show help information."))
        if !footer.isEmpty { lines += ["", footer] }
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
