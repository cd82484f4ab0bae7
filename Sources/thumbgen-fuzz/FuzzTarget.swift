import ThumbKit
#if FUZZING
import CFuzzDriver
#endif
import Foundation

/// The fuzzed path: one input (PNG, JPEG, WebP, GIF, TIFF, HEIF (HEIC, AVIF) or camera RAW, told by content) through decode → orientation and
/// colour conversion → thumbnail → encode → decode, and through the rating readers (XMP, EXIF).
enum FuzzPath {
    /// Small limits keep each execution fast and bounded; they are part of what is tested.
    static let limits = DecodeLimits(maxPixels: 1_000_000, maxFileBytes: 1 << 20)

    /// Settings that between them reach streaming and whole decoding, every compose step
    /// (cover crop, rounded corners, contain placement, background), both light encodings and
    /// every output format (JPEG flattened onto white, WebP lossless).
    static let thumbnailers: [Thumbnailer] = {
        var jpeg = ThumbnailOptions(size: ThumbnailSize(width: 40, height: 30, mode: .cover, scale: .any),
                                    kernel: .mitchell, light: .sRGB, cornerRadius: 5, limits: limits)
        jpeg.format = .jpeg(JPEGEncoder(quality: 70, progressive: true))
        var webp = ThumbnailOptions(size: ThumbnailSize(width: 20, height: 20, mode: .contain),
                                    background: Color(red: 9, green: 99, blue: 199, alpha: 128), limits: limits)
        webp.format = .webp(WebPEncoder(lossless: true))
        return [Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 24, height: 24), limits: limits)),
                Thumbnailer(options: jpeg), Thumbnailer(options: webp)]
    }()

    /// Where each input is also written, so the descriptor reader is fuzzed too: on tmpfs when
    /// there is one, one file per process.
    static let path: String = {
        let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory()
        return directory + "/thumbgen-fuzz-\(getpid()).input"
    }()

    /// Thumbnails or the error, as text to compare.
    static func outcome(_ thumbnailer: Thumbnailer, _ source: ImageSource, scales: [Int]) -> Result<[Thumbnail], ThumbnailError> {
        Result { () throws(ThumbnailError) in try thumbnailer.thumbnails(of: source, scales: scales) }
    }

    static func run(_ bytes: [UInt8]) {
        let written = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { unlink(path) }
        // The XMP reader on the input itself (mutations of the seed packets make hostile XML),
        // then the rating of whatever XMP and EXIF the header carries; a file and its bytes must
        // carry the same.
        _ = try? XMPReader.rating(in: bytes)
        if let header = try? ImageSource.bytes(bytes).header(limits: limits) {
            _ = RatingReader.embeddedRating(in: header.metadata)
            if written, let fromFile = try? ImageSource.file(path).header(limits: limits), fromFile.metadata != header.metadata {
                fatalError("a file and its bytes carry different metadata")
            }
        }
        for (index, thumbnailer) in thumbnailers.enumerated() {
            let scales = index == 1 ? [1, 2] : [1]
            let result = outcome(thumbnailer, .bytes(bytes), scales: scales)
            // A file and its bytes must give the same thumbnails, or the same error.
            if written {
                switch (result, outcome(thumbnailer, .file(path), scales: scales)) {
                case (.success(let a), .success(let b)) where a.map(\.bytes) == b.map(\.bytes) && a.map(\.warnings) == b.map(\.warnings): break
                case (.failure(let a), .failure(let b)) where a == b: break
                case (let a, let b): fatalError("a file and its bytes differ: \(a) versus \(b)")
                }
            }
            guard case .success(let thumbnails) = result else { return }
            for thumbnail in thumbnails {
                // Lossy JPEG only approximates its pixels; the lossless formats give them back exactly.
                let back = try? ImageSource.bytes(thumbnail.bytes).decodeAsStored()
                let readable = if case .jpeg = thumbnail.format {
                    back.map { $0.width == thumbnail.image.width && $0.height == thumbnail.image.height } ?? false
                } else {
                    back == thumbnail.image
                }
                if !readable { fatalError("thumbgen could not read back its own output") }
            }
        }
    }
}

/// libFuzzer's entry point for one input (its runtime refers to this symbol by name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzPath.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Built by `make fuzz` (`-sanitize=fuzzer,address -D FUZZING`), main hands control to
/// libFuzzer's driver. In an ordinary build it replays the files named on the command line through
/// the same path, so a crashing input can be rerun under a debugger.
@main
enum FuzzMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data!, size) })
        #else
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            FuzzPath.run([UInt8](data))
            print("ok: \(path)")
        }
        #endif
    }
}
