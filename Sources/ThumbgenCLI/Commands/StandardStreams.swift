import Glibc
import ThumbKit

/// `thumbgen - [-o -|FILE]`: one image read from standard input, one thumbnail written to
/// standard output (or to FILE), so thumbgen sits in a pipe:
/// `pdftoppm -png -f 1 -l 1 doc.pdf | thumbgen - > page.png`.
///
/// The stream is read whole before decoding (formats such as TIFF and HEIF need to seek), at
/// most `--max-file-bytes`, else `--max-memory` bytes of it: a stream without end costs no more.
/// The output format is `--format`, else PNG (a stream has no name to take it from).
struct StandardStreams {
    /// The input word for standard input, and the output word for standard output.
    static let word = "-"

    /// Options that name or select files of a batch, which mean nothing for one stream.
    static let batchOnly = ["manifest", "shard", "prune", "base", "name", "pairs", "files-from", "null", "shard-count", "hidden", "force", "events", "write-mode"]

    let set: ThumbnailSet
    let limits: DecodeLimits
    /// nil: standard output.
    let outputFile: FilePath?

    init(_ arguments: ParsedArguments, set: ThumbnailSet, limits: DecodeLimits) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("'-' (standard input) must be the only input")
        }
        for option in Self.batchOnly where arguments.value(option) != nil || arguments.has(option) {
            throw UsageError("--\(option) does not apply to standard input (one image in, one out)")
        }
        let outputs = set.scales.count * max(set.widths.count, 1) * set.formats.count
        guard outputs == 1 else {
            throw UsageError("standard input makes one thumbnail, and --widths, --scales and --format ask for \(outputs)")
        }
        self.set = set
        self.limits = limits
        let output = arguments.path("output")
        outputFile = output == nil || output == FilePath(Self.word) ? nil : output
    }

    func run(console: Console) -> ExitCode {
        if outputFile == nil && isatty(1) == 1 {
            console.err("thumbgen: standard output is a terminal: redirect it to a file or a pipe, or give -o FILE\n")
            return .usage
        }
        // The bytes are held whole: the file limit bounds them, else the memory budget does.
        let limit = limits.maxFileBytes > 0 ? limits.maxFileBytes : limits.maxMemory
        let option = limits.maxFileBytes > 0 ? "--max-file-bytes" : "--max-memory"
        let bytes: [UInt8]
        switch FileSystem.readStream(0, maxBytes: limit) {
        case .success(let read): bytes = read
        case .failure(.tooLarge(let limit)):
            console.fail(named: "standard input", "more than the limit of \(limit) bytes (\(option))")
            return .failure
        case .failure(.system(let failure)):
            console.fail(named: "standard input", "cannot read: \(failure.reason)")
            return .failure
        }
        var set = self.set
        set.options.limits = limits
        let thumbnail: Thumbnail
        do throws(ThumbnailError) {
            guard let made = try Thumbnailer(set: set).thumbnails(of: .bytes(bytes)).first else { return .failure }
            thumbnail = made
        } catch {
            console.fail(named: "standard input", FailureMessage(error).message)
            return .failure
        }
        for warning in thumbnail.warnings { console.warn(named: "standard input", warning) }
        if let outputFile {
            do throws(FileWriteError) {
                try AtomicFile.write(thumbnail.bytes, to: outputFile)
            } catch {
                console.fail(outputFile, error.message)
                return error.isMachineFailure ? .temporaryFailure : .failure
            }
            return .success
        }
        if let failure = Self.writeAll(thumbnail.bytes, to: 1) {
            console.fail(named: "standard output", "cannot write: \(failure.reason)")
            // A reader that went away (EPIPE) is the pipe's end, not the machine's failure.
            return failure.code == EPIPE ? .failure : .temporaryFailure
        }
        return .success
    }

    /// Writes every byte (a pipe takes them in pieces); the system's reason if it fails.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> (reason: String, code: Int32)? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return (String(cString: strerror(errno)).lowercased(), errno)
            }
            offset += n
        }
        return nil
    }
}
