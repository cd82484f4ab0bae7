import Glibc
import Synchronization
import ThumbKit

/// Shows a running batch on standard error: a one-line progress bar redrawn in place on a
/// terminal, warnings, and with `--verbose` a line per file; warnings and `-v` lines come in plan
/// order (the runner holds them back until the files before are done), so they are the same for
/// any `-j`.
final class BatchDisplay: @unchecked Sendable {
    private let console: Console
    private let showBar: Bool
    private let verbose: Bool
    private let warnings: Bool
    /// Seconds of the last redraw; the bar is redrawn at most ten times a second.
    private var lastDraw = -1.0
    private var barVisible = false
    /// Once set (Ctrl-C), the bar is not drawn again: the signal handler has erased it.
    private let cancellation: CancellationFlag?

    /// `--progress`, for every command that shows a bar (thumbnails, build, sheet).
    static let progressOption = OptionSpec("progress", value: "WHEN", choices: ["auto", "always", "never"],
                                           help: "Progress bar on standard error: auto (on a terminal, default), always or never.")

    /// Whether `--progress` and the verbosity ask for a bar: never with `-q`; with `auto`, when
    /// standard error is a terminal.
    static func showsBar(_ arguments: ParsedArguments, verbosity: Verbosity, console: Console) throws(UsageError) -> Bool {
        let mode = try arguments.value("progress", default: "auto", expected: "auto, always or never") {
            ["auto", "always", "never"].contains($0) ? $0 : nil
        }
        return !verbosity.quiet && (mode == "always" || (mode == "auto" && console.errIsTerminal))
    }

    init(console: Console, showBar: Bool, verbose: Bool, warnings: Bool = true, cancellation: CancellationFlag? = nil) {
        self.console = console
        self.cancellation = cancellation
        self.showBar = showBar
        self.verbose = verbose
        self.warnings = warnings
    }

    /// The batch runner's progress handler (it serialises calls).
    var handle: BatchProgressHandler {
        { [self] event, progress in self.show(event, progress) }
    }

    private func show(_ event: BatchEvent, _ progress: BatchProgress) {
        if warnings, case .warning(let path, let reason) = event {
            clearBar()
            console.warn(named: path, reason)
        }
        if verbose {
            let line: String?
            switch event {
            case .written(let path): line = "written: \(path)"
            case .upToDate(let path): line = "up to date: \(path)"
            case .skipped(let message): line = "skipped: \(message.line)"
            case .pruned(let path): line = "pruned: \(path)"
            default: line = nil
            }
            if let line {
                clearBar()
                console.err(line + "\n")
            }
        }
        guard showBar, cancellation?.isCancelled != true else { return }
        if case .finished = event { return }
        let isLast = progress.done == progress.total
        if progress.elapsedSeconds - lastDraw >= 0.1 || isLast {
            lastDraw = progress.elapsedSeconds
            let text = ProgressBar.line(done: progress.done, total: progress.total,
                                        elapsedSeconds: progress.elapsedSeconds, width: Self.terminalWidth() - 1)
            console.err("\r" + text + "\u{1B}[K")
            barVisible = true
            progressLineShown.store(true, ordering: .releasing)
        }
    }

    /// Removes the bar before the summary is printed.
    func finish() { clearBar() }

    private func clearBar() {
        if barVisible {
            barVisible = false
            progressLineShown.store(false, ordering: .releasing)
            // Erased here unless a signal cancelled the run: its handler erased it then.
            if cancellation?.isCancelled != true { console.err("\r\u{1B}[K") }
        }
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 20 { return Int(size.ws_col) }
        return 80
    }
}
