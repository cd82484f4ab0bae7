import ThumbKit

/// `thumbgen info FILE...`: what each file's header says, or why it cannot be read.
struct InfoCommand: Command {
    let name = "info"

    var help: HelpText {
        HelpText(
            overview: "Print each image's size, colour type, bit depth, layout and transparency.",
            usage: ["thumbgen info [--max-pixels N] [--max-file-bytes N] FILE..."],
            arguments: [("FILE", "PNG, JPEG, WebP or GIF files to describe.")],
            options: [CommonOptions.maxPixels, CommonOptions.maxFileBytes],
            footer: """
            Prints one line per file, the size as stored (before any EXIF orientation):
              FILE: WIDTHxHEIGHT, COLOUR-TYPE, N-bit, interlaced|not interlaced, transparency|opaque   (PNG)
              FILE: WIDTHxHEIGHT, jpeg COLOUR-SPACE, 8-bit, progressive|baseline, opaque              (JPEG)
            Exits 1 if any file cannot be read.
            """)
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no files given") }
        let limits = try CommonOptions.limits(arguments)
        var status = ExitCode.success
        for path in arguments.positionals {
            do {
                let header = try ImageSource.file(path).header(limits: limits)
                console.out("\(PathEscaping.escape(path)): \(header)\n")
            } catch {
                console.fail(path, FailureMessage(error).message)
                status = .failure
            }
        }
        return status
    }
}
