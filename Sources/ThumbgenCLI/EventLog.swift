import Glibc
import ThumbKit

/// `--events DEST`: one JSON line per file (`FileReport.jsonLine`) as each is decided, in plan
/// order, for log aggregation and for other tools' progress displays. DEST is a file (created or
/// truncated), `-` for standard output, or `fd:N` for a descriptor the caller opened
/// (`3>events.jsonl`).
final class EventLog: @unchecked Sendable {
    static let option = OptionSpec("events", value: "DEST",
        help: "Write one JSON line per file (path, outcome, outputs, bytes, ms) to DEST: a file, - (standard output) or fd:N.")

    private let descriptor: Int32
    private let owned: Bool

    /// Opens DEST; a file that cannot be created is a failure naming it.
    init(_ destination: FilePath) throws(UsageError) {
        let text = destination.description
        if text == "-" {
            (descriptor, owned) = (1, false)
        } else if text.hasPrefix("fd:") {
            guard let number = Int32(text.dropFirst(3)), number >= 0, fcntl(number, F_GETFD) != -1 else {
                throw .invalidValue("events", text, expected: "a file, - or fd:N with N an open descriptor")
            }
            (descriptor, owned) = (number, false)
        } else {
            let fd = destination.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
            guard fd >= 0 else {
                throw UsageError("cannot open --events \(text): \(String(cString: strerror(errno)).lowercased())")
            }
            (descriptor, owned) = (fd, true)
        }
    }

    deinit { if owned { close(descriptor) } }

    /// Writes the line of a `.file` event; other events are not logged.
    func log(_ event: BatchEvent) {
        guard case .file(let report) = event else { return }
        _ = StandardStreams.writeAll(Array((report.jsonLine + "\n").utf8), to: descriptor)
    }
}
