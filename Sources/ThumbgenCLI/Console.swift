import Glibc

/// Where the CLI's text goes: results to standard output, diagnostics to standard error.
/// Collected in memory by tests.
final class Console: @unchecked Sendable {
    private let lock = NSLockless()
    private(set) var capturedOut = ""
    private(set) var capturedErr = ""
    private let capturing: Bool

    /// Writes to the process's standard output and error.
    static func standard() -> Console { Console(capturing: false) }

    /// Keeps everything in `capturedOut` / `capturedErr`.
    static func capture() -> Console { Console(capturing: true) }

    private init(capturing: Bool) { self.capturing = capturing }

    func out(_ text: String) {
        lock.locked {
            if capturing { capturedOut += text } else { Console.write(text, to: 1) }
        }
    }

    func err(_ text: String) {
        lock.locked {
            if capturing { capturedErr += text } else { Console.write(text, to: 2) }
        }
    }

    /// `thumbgen: FILE: message` — the one line for an expected failure.
    func fail(_ path: String, _ message: String) {
        err("thumbgen: \(DisplayText.escape(path)): \(message)\n")
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

/// A tiny pthread mutex wrapper for the console (ThumbKit's is internal to it).
final class NSLockless: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

/// Makes untrusted text (file names) safe to print on one line.
enum DisplayText {
    /// Control characters become `\n`, `\t`, `\r` or `\u{XX}`; a backslash is doubled.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f || (0x80..<0xa0).contains(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
