import ThumbKit

/// The hidden options that write thumbgen's man pages and shell completions from the option
/// tables (what `make install` runs): `--generate-man DIR` and `--generate-completion SHELL`.
/// Not listed in `--help`: they are for packagers, and the Makefile names them.
enum Generators {
    /// The exit status when `arguments` ask for a generator, nil otherwise.
    static func run(_ arguments: [String], console: Console) -> ExitCode? {
        guard let first = arguments.first, first == "--generate-man" || first == "--generate-completion" else { return nil }
        guard arguments.count == 2 else {
            console.err("thumbgen: \(first) takes one value\nUsage: thumbgen --generate-man DIR | --generate-completion bash|zsh|fish\n")
            return .usage
        }
        if first == "--generate-man" { return writeManPages(to: FilePath(arguments[1]), console: console) }
        switch arguments[1] {
        case "bash": console.out(BashCompletion(commands: ThumbgenMain.commands).render())
        case "zsh": console.out(ZshCompletion(commands: ThumbgenMain.commands).render())
        case "fish": console.out(FishCompletion(commands: ThumbgenMain.commands).render())
        default:
            console.err("thumbgen: invalid value '\(PathEscaping.singleLine(arguments[1]))' for --generate-completion: expected bash, zsh or fish\n")
            return .usage
        }
        return .success
    }

    /// thumbgen(1) and one page per command.
    static func manPages() -> [ManPage] {
        let others = ThumbgenMain.commands.filter { !$0.name.isEmpty }
        return ThumbgenMain.commands.map { command in
            command.name.isEmpty
                ? ManPage(name: "thumbgen", summary: command.summary, help: command.help, seeAlso: others.map { "thumbgen-" + $0.name })
                : ManPage(name: "thumbgen-" + command.name, summary: command.summary, help: command.help, seeAlso: ["thumbgen"])
        }
    }

    private static func writeManPages(to directory: FilePath, console: Console) -> ExitCode {
        do throws(FileWriteError) {
            try AtomicFile.createDirectories(directory)
            for page in manPages() {
                try AtomicFile.write(Array(page.render().utf8), to: directory.appending(FilePath(page.fileName)))
            }
            return .success
        } catch {
            console.fail(directory, error.message)
            return .failure
        }
    }
}
