import ThumbKit

/// The command-line entry point: picks the command from the first argument and runs it.
public enum ThumbgenMain {
    static let version = "thumbgen \(ThumbKitVersion.string)"

    /// Runs thumbgen with the arguments after the program name; returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        run(arguments, console: .standard()).rawValue
    }

    /// Runs thumbgen with the arguments after the program name as the process got them (bytes:
    /// a file name need not be UTF-8); returns the exit status.
    public static func run(rawArguments: [[UInt8]]) -> Int32 {
        run(rawArguments.map { String(decoding: $0, as: UTF8.self) }, raw: rawArguments, console: .standard()).rawValue
    }

    /// Runs thumbgen with its text going to `console` (tests capture it) and the arguments both as
    /// text and as the bytes the process got.
    package static func run(_ arguments: [String], raw: [[UInt8]]? = nil, console: Console) -> ExitCode {
        let command: any Command
        var rest = arguments
        var restRaw = raw ?? arguments.map { Array($0.utf8) }
        switch arguments.first {
        case "info":
            command = InfoCommand()
            rest.removeFirst()
            restRaw.removeFirst()
        case "build":
            command = BuildCommand()
            rest.removeFirst()
            restRaw.removeFirst()
        case "check":
            command = CheckCommand()
            rest.removeFirst()
            restRaw.removeFirst()
        case "sheet":
            command = SheetCommand()
            rest.removeFirst()
            restRaw.removeFirst()
        case "stars":
            command = StarsCommand()
            rest.removeFirst()
            restRaw.removeFirst()
        case "icons":
            command = IconsCommand()
            rest.removeFirst()
            restRaw.removeFirst()
        default:
            command = ThumbnailCommand()
        }
        let beforeDashes = rest.prefix { $0 != "--" }
        if beforeDashes.contains("--version") {
            console.out("\(version) (\(CodecVersions.field))\n")
            return .success
        }
        if beforeDashes.contains(where: { $0 == "-h" || $0 == "--help" }) {
            console.out(command.help.render())
            return .success
        }
        do {
            let parsed = try ArgumentParser(command.help.options).parse(rest, raw: restRaw)
            return try command.run(parsed, console: console)
        } catch {
            console.err("thumbgen: \(error.message)\nUsage: \(command.help.usage[0])\n       See 'thumbgen \(command.name.isEmpty ? "" : command.name + " ")--help'.\n")
            return .usage
        }
    }
}

/// A thumbgen command: its help (which lists its options) and how it runs.
protocol Command {
    /// The word that selects it (`info`), or empty for the default command.
    var name: String { get }
    var help: HelpText { get }
    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode
}
