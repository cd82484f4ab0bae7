import ThumbKit

/// `thumbgen info FILE...`: what each file's header says, or why it cannot be read.
struct InfoCommand: Command {
    let name = "info"

    var help: HelpText {
        HelpText(
            overview: "Print each PNG or JPEG's size, colour type, bit depth, interlace and transparency.",
            usage: ["thumbgen info [--max-pixels N] FILE..."],
            arguments: [("FILE", "PNG files to describe.")],
            options: [CommonOptions.maxPixels],
            footer: "Prints one line per file:\n  FILE: WIDTHxHEIGHT, COLOUR-TYPE, N-bit, interlaced|not interlaced, transparency|opaque\nExits 1 if any file cannot be read.")
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no files given") }
        let limits = try CommonOptions.limits(arguments)
        var status = ExitCode.success
        for path in arguments.positionals {
            do {
                let decoder = try PNGDecoder(path: path, limits: limits)
                console.out("\(PathEscaping.escape(path)): \(Self.describe(decoder.info))\n")
            } catch PNGError.notPNG where Self.startsLikeJPEG(path) {
                do {
                    let bytes = try Self.read(path, limits: limits)
                    let decoder = try JPEGDecoder(bytes: bytes, limits: limits)
                    console.out("\(PathEscaping.escape(path)): \(Self.describe(decoder.info))\n")
                } catch let error as any ThumbKitError {
                    console.fail(path, error.message)
                    status = .failure
                } catch {
                    console.fail(path, "\(error)")
                    status = .failure
                }
            } catch {
                console.fail(path, error.message)
                status = .failure
            }
        }
        return status
    }

    /// A JPEG line in the same layout: `WxH, jpeg COLOUR-SPACE, 8-bit, progressive|baseline, opaque`.
    static func describe(_ info: JPEGInfo) -> String {
        "\(info.width)x\(info.height), jpeg \(info.colorSpace), 8-bit, " + (info.progressive ? "progressive" : "baseline") + ", opaque"
    }

    static func startsLikeJPEG(_ path: String) -> Bool {
        guard case .success(let head) = FileSystem.head(Array(path.utf8), count: ImageFormat.detectionLength) else { return false }
        return ImageFormat.detect(head) == .jpeg
    }

    static func read(_ path: String, limits: DecodeLimits) throws(PNGError) -> [UInt8] {
        let bytes: [UInt8]
        switch FileSystem.read(path) {
        case .failure(let failure): throw .unreadable(reason: failure.reason)
        case .success(let read): bytes = read
        }
        if limits.maxFileBytes != 0 && UInt64(bytes.count) > limits.maxFileBytes {
            throw .limitExceeded(reason: "file is larger than the limit of \(limits.maxFileBytes) bytes (--max-file-bytes)")
        }
        return bytes
    }

    static func describe(_ info: PNGInfo) -> String {
        "\(info.width)x\(info.height), \(info.colorType), \(info.bitDepth)-bit, "
            + (info.interlaced ? "interlaced" : "not interlaced") + ", "
            + (info.hasTransparency ? "transparency" : "opaque")
    }
}
