import ThumbKit
#if FUZZING
import CFuzzDriver
#endif
import Foundation

/// The fuzzed path: one input (PNG or JPEG, told by content) through decode → orientation and
/// colour conversion → thumbnail → encode → decode.
enum FuzzPath {
    /// Small limits keep each execution fast and bounded; they are part of what is tested.
    static let limits = DecodeLimits(maxPixels: 1_000_000, maxFileBytes: 1 << 20)

    /// Two settings that between them reach streaming and whole decoding, every compose step
    /// (cover crop, rounded corners, contain placement, background) and both light encodings.
    static let thumbnailers = [
        Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 24, height: 24), limits: limits)),
        Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 30, mode: .cover, scale: .any),
                                              kernel: .mitchell, light: .sRGB, cornerRadius: 5, limits: limits)),
        Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 20, height: 20, mode: .contain),
                                              background: Color(red: 9, green: 99, blue: 199), limits: limits)),
    ]

    static func run(_ bytes: [UInt8]) {
        for (index, thumbnailer) in thumbnailers.enumerated() {
            guard let thumbnails = try? thumbnailer.thumbnails(of: .bytes(bytes), scales: index == 1 ? [1, 2] : [1]) else { return }
            for thumbnail in thumbnails where (try? ImageSource.bytes(thumbnail.png).decodeAsStored()) != thumbnail.image {
                fatalError("thumbgen could not read back its own output")
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
