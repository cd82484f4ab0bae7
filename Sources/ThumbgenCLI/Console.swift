import Glibc
import Synchronization
import ThumbKit

/// Where the CLI's text goes: results to standard output, diagnostics to standard error.
/// Collected in memory by tests.
package final class Console: Sendable {
    private let captured = Mutex((out: "", err: ""))
    private let capturing: Bool

    /// Writes to the process's standard output and error.
    static func standard() -> Console { Console(capturing: false) }

    /// Keeps everything in `capturedOut` / `capturedErr`.
    package static func capture() -> Console { Console(capturing: true) }

    private init(capturing: Bool) { self.capturing = capturing }

    /// Everything written to standard output (when capturing).
    package var capturedOut: String { captured.withLock { $0.out } }
    /// Everything written to standard error (when capturing).
    package var capturedErr: String { captured.withLock { $0.err } }

    func out(_ text: String) {
        captured.withLock { if capturing { $0.out += text } else { Console.write(text, to: 1) } }
    }

    func err(_ text: String) {
        captured.withLock { if capturing { $0.err += text } else { Console.write(text, to: 2) } }
    }

    /// `thumbgen: FILE: message` — the one line for an expected failure, whatever the name or
    /// the message hold.
    func fail(_ path: FilePath, _ message: String) { fail(named: "\(path)", message) }

    /// `thumbgen: NAME: message` for a name already made printable (a path's display name).
    func fail(named name: String, _ message: String) {
        err("thumbgen: \(name): \(PathEscaping.singleLine(message))\n")
    }

    /// `thumbgen: warning: NAME: message`: a problem that did not stop the file.
    func warn(named name: String, _ message: String) {
        err("thumbgen: warning: \(name): \(PathEscaping.singleLine(message))\n")
    }

    /// True when standard error is a terminal (and output is not captured).
    var errIsTerminal: Bool { !capturing && isatty(2) == 1 }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}
