import ThumbKit

/// `thumbgen info FILE...`: what each file's header says, or why it cannot be read.
struct InfoCommand: Command {
    let name = "info"

    var help: HelpText {
        HelpText(
            overview: "Print each image's size, colour type, bit depth, interlace and transparency.",
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
            } catch {
                console.fail(path, error.message)
                status = .failure
            }
        }
        return status
    }

    static func describe(_ info: PNGInfo) -> String {
        "\(info.width)x\(info.height), \(info.colorType), \(info.bitDepth)-bit, "
            + (info.interlaced ? "interlaced" : "not interlaced") + ", "
            + (info.hasTransparency ? "transparency" : "opaque")
    }
}
