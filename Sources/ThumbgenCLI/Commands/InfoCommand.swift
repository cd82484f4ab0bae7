import ThumbKit

/// `thumbgen info FILE...`: what each file's header says, or why it cannot be read.
struct InfoCommand: Command {
    let name = "info"
    let summary = "Print what each image file is: size, colour type, bit depth, rating."

    static let options: [OptionSpec] = [
        OptionSpec("header-only", help: "Read only the header (fast), instead of decoding every pixel to prove the file is intact."),
        CommonOptions.maxPixels,
        CommonOptions.maxFileBytes,
        CommonOptions.maxMemory,
        RatingSourceSettings.ratingsFile,
        RatingSourceSettings.noSidecars,
    ]

    var help: HelpText {
        HelpText(
            overview: "Print each image's size, colour type, bit depth, layout and transparency.",
            usage: ["thumbgen info [--header-only] [--max-pixels N] [--max-file-bytes N] [--max-memory BYTES] [--ratings-file FILE] [--no-sidecars] FILE..."],
            arguments: [("FILE", "\(ImageFormat.names(kinds: true)) files to describe.")],
            options: Self.options,
            footer: """
            Prints one line per file, the size as stored (before any EXIF orientation):
            \(Self.lineShapes)
            A photo stored turned gets ", orientation N (NAME), applied" (its EXIF or TIFF
            orientation, which thumbnails apply); a HEIF file's EXIF orientation is named as not
            applied, since HEIF's own transforms are. A camera RAW is described by the JPEG preview
            thumbgen reads (the largest embedded one) and says where it was found.
            A photo with a star rating gets ", rating N (WHERE)" or ", rejected (WHERE)" at the end,
            WHERE being the first of ratings-file, sidecar (FILE.xmp beside it, or NAME.xmp), xmp
            (in the file) or exif (in the file) that has one. A sidecar or XMP packet that cannot be
            read is a warning (thumbgen: warning: FILE: reason), not a failure.
            Every file is decoded whole first, so a file whose header is fine but whose pixel data is
            corrupt or cut off is an error; --header-only trusts the header and reads no further.
            Exits 1 if any file cannot be read (one line each: thumbgen: FILE: reason).
            """,
            examples: [("thumbgen info photo.jpg", "Size, colour type and rating of one photo."), ("thumbgen info --header-only *.heic", "Read only the headers (fast).")])
    }

    /// The line of each format, "  FILE: WIDTHxHEIGHT, … (PNG)", the names in one column.
    static var lineShapes: String {
        let shapes = ImageFormat.allCases.map { ("FILE: " + ImageHeader.descriptionShape(of: $0), $0.description) }
        let column = (shapes.map(\.0.count).max() ?? 0) + 3
        return shapes.map { shape, name in "  " + shape + String(repeating: " ", count: column - shape.count) + "(\(name))" }
            .joined(separator: "\n")
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no files given") }
        // The whole image is decoded: the memory budget of one job applies.
        let limits = try CommonOptions.limits(arguments, jobs: 1)
        let headerOnly = arguments.has("header-only")
        let ratings = try RatingSourceSettings.reader(arguments)
        var status = ExitCode.success
        for path in arguments.positionalPaths {
            switch Self.describe(path, limits: limits, headerOnly: headerOnly) {
            case .success(let header):
                // A name that is not UTF-8 cannot be listed in a ratings file or have a sidecar
                // found by name: only what the image itself says counts.
                let lookup = path.string.map { ratings.lookup(forSourceAt: $0, header: header) }
                    ?? RatingReader.embeddedRating(in: header.metadata)
                for warning in lookup.warnings { console.warn(named: "\(path)", warning) }
                let extras = [header.orientationSummary, lookup.summary].compactMap { $0 }
                console.out("\(path): \(header)" + extras.map { ", " + $0 }.joined() + "\n")
            case .failure(let failure):
                console.fail(path, failure.message)
                status = .failure
            }
        }
        return status
    }

    /// The header, once the whole image has decoded (unless `headerOnly`), from one open of the
    /// file (by its path's bytes: any Linux name).
    static func describe(_ path: FilePath, limits: DecodeLimits, headerOnly: Bool) -> Result<ImageHeader, FailureMessage> {
        do throws(DecodeError) {
            return .success(try ImageSource.file(path: path).header(limits: limits, decoding: !headerOnly))
        } catch {
            return .failure(FailureMessage(error))
        }
    }
}
