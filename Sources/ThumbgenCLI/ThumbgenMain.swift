import ThumbKit

/// The command-line entry point: picks the command from the first argument and runs it.
public enum ThumbgenMain {
    static let version = "thumbgen \(ThumbKitVersion.string)"

    /// Every command, the default (thumbnail) one first, in the order help and man pages list them.
    static let commands: [any Command] = [
        ThumbnailCommand(), BuildCommand(), InfoCommand(), CheckCommand(), SheetCommand(), StarsCommand(), IconsCommand(), ManifestCommand(),
    ]

    /// The command a word selects (`info`), or nil for none.
    static func command(named word: String) -> (any Command)? {
        commands.first { !$0.name.isEmpty && $0.name == word }
    }

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
        var rest = arguments
        var restRaw = raw ?? arguments.map { Array($0.utf8) }
        if let generated = Generators.run(arguments, console: console) { return generated }
        if arguments.first == "help" { return help(Array(arguments.dropFirst()), console: console) }
        let command: any Command
        if let word = arguments.first, let named = Self.command(named: word) {
            command = named
            rest.removeFirst()
            restRaw.removeFirst()
        } else {
            command = commands[0]
        }
        let beforeDashes = rest.prefix { $0 != "--" }
        if beforeDashes.contains(where: { $0 == "-V" || $0 == "--version" }) {
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

    /// `thumbgen help [COMMAND]`: the command's `--help` (the default command's without one).
    static func help(_ words: [String], console: Console) -> ExitCode {
        guard words.count <= 1 else {
            console.err("thumbgen: help takes at most one command\nUsage: thumbgen help [COMMAND]\n")
            return .usage
        }
        guard let word = words.first else {
            console.out(commands[0].help.render())
            return .success
        }
        guard let command = Self.command(named: word) else {
            let names = commands.map(\.name).filter { !$0.isEmpty }.joined(separator: ", ")
            console.err("thumbgen: unknown command '\(PathEscaping.singleLine(word))' (commands: \(names))\nUsage: thumbgen help [COMMAND]\n")
            return .usage
        }
        console.out(command.help.render())
        return .success
    }
}

/// A thumbgen command: its help (which lists its options) and how it runs.
protocol Command: Sendable {
    /// The word that selects it (`info`), or empty for the default command.
    var name: String { get }
    /// One line saying what it does, for the command list in `--help` and the man pages' NAME.
    var summary: String { get }
    var help: HelpText { get }
    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode
}
