/// How much a command prints besides its failures. Every command that writes files reads the same
/// three options the same way, so a build step can pass `-q` or `--summary` to any of them.
struct Verbosity {
    /// `-q`: failures only (no warnings, no per-file lines, no summary unless `--summary`).
    let quiet: Bool
    /// `-v`: a line per file (or output, page, badge) and the summary.
    let verbose: Bool
    /// Whether the summary line is printed: `--summary`, or `-v`, or standard error is a terminal
    /// and `-q` was not given. Silence is success off a terminal.
    let showsSummary: Bool

    init(_ arguments: ParsedArguments, console: Console) {
        quiet = arguments.has("quiet")
        verbose = arguments.has("verbose") && !quiet
        showsSummary = arguments.has("summary") || (!quiet && (verbose || console.errIsTerminal))
    }

    /// Warnings are printed unless `-q`.
    var showsWarnings: Bool { !quiet }

    /// The three options, with what `-v` lists named as `item` ("file", "page", "badge").
    static func options(listing item: String) -> [OptionSpec] {
        [
            OptionSpec("quiet", short: "q", help: "Print only errors."),
            OptionSpec("verbose", short: "v", help: "Print a line per \(item), and the summary."),
            CommonOptions.summary,
        ]
    }
}
