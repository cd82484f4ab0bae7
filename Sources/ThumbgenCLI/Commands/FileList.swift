import ThumbKit

/// `--files-from FILE|-` (with `-0`): the inputs as a list, one path a line (or NUL-terminated),
/// instead of walking folders: the list-then-array pattern of batch schedulers, where one
/// listing is made once and split among thousands of tasks by `--shard`.
///
/// Paths are kept as the bytes listed (any name that is not UTF-8 works); with newlines, a name
/// holding a newline needs `-0`. Empty entries are ignored. Each path is a file input; outputs
/// mirror its path below `--base` (default: the current folder).
struct FileList {
    static let options: [OptionSpec] = [
        OptionSpec("files-from", value: "FILE|-",
                   help: "Also process the files listed in FILE (- for standard input), one path a line; outputs mirror their paths below --base (default .)."),
        OptionSpec("null", short: "0", help: "--files-from's paths end with NUL bytes instead of newlines (find -print0)."),
    ]

    /// Why the list could not be read.
    struct Failure: Error {
        let message: String
    }

    /// The list file; nil for standard input.
    let path: FilePath?
    let separator: UInt8

    /// nil when `--files-from` is not given.
    init?(_ arguments: ParsedArguments) throws(UsageError) {
        guard let path = arguments.path("files-from") else {
            if arguments.has("null") { throw UsageError("-0 goes with --files-from") }
            return nil
        }
        self.path = path == FilePath("-") ? nil : path
        separator = arguments.has("null") ? 0 : 0x0A
    }

    /// The list as messages name it.
    var shownName: String { path?.description ?? "standard input" }

    /// The listed paths, in the list's order.
    func read() -> Result<[FilePath], Failure> {
        let bytes: [UInt8]
        if let path {
            switch FileSystem.read(path) {
            case .success(let read): bytes = read
            case .failure(let failure): return .failure(Failure(message: "cannot read: \(failure.reason)"))
            }
        } else {
            switch FileSystem.readStream(0, maxBytes: 0) {
            case .success(let read): bytes = read
            case .failure(.tooLarge): return .failure(Failure(message: "cannot read: too large"))
            case .failure(.system(let failure)): return .failure(Failure(message: "cannot read: \(failure.reason)"))
            }
        }
        return .success(bytes.split(separator: separator, omittingEmptySubsequences: true).map { FilePath(Array($0)) })
    }
}
