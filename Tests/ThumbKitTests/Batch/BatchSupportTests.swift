import Foundation
import Glibc
import Synchronization
import Testing
@testable import ThumbKit

/// Shared fixtures for the Batch tests: a scratch directory, tiny real PNGs and a fake renderer.

/// A fresh directory under /tmp, removed when the value is released.
final class ScratchDirectory: @unchecked Sendable {
    let path: String

    init() {
        var template = Array("/tmp/thumbgen-batch-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/relative`.
    func at(_ relative: String) -> String { path + "/" + relative }

    /// Writes a file, creating parents.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8]) -> String {
        let full = at(relative)
        try! AtomicFile.write(bytes, to: full)
        return full
    }

    func mkdir(_ relative: String) { try! AtomicFile.createDirectories(at(relative)) }

    func symlink(_ relative: String, to target: String) {
        #expect(Glibc.symlink(target, at(relative)) == 0)
    }
}

enum Fixture {
    /// A tiny deterministic RGBA PNG whose pixels depend on `seed`.
    static func png(width: Int = 3, height: Int = 2, seed: Int = 0) -> [UInt8] {
        var samples: [UInt8] = []
        for i in 0..<(width * height) {
            samples += [UInt8(truncatingIfNeeded: seed * 37 + i * 11), UInt8(truncatingIfNeeded: seed * 5 + i), UInt8(truncatingIfNeeded: 200 - i), 255]
        }
        return try! PNGEncoder().encode(Image(width: width, height: height, rgba8: samples))
    }

    /// A renderer that decodes the source and upscales it by pixel replication per scale, then
    /// encodes with `level`. Deterministic, fast, and independent of the real pipeline.
    static func renderer(level: Int = 9, invert: Bool = false, calls: CallCounter? = nil) -> BatchRenderer {
        { source in
            calls?.increment()
            let image = try pngOnly(source.image).converted8()
            let pixels = image.rgba8
            var outputs: [RenderedOutput] = []
            for (index, request) in source.requests.enumerated() {
                for variant in request.variants {
                    let scale = variant.scale.wholeValue!
                    let w = image.width * scale, h = image.height * scale
                    var out = [UInt8](repeating: 0, count: w * h * 4)
                    for y in 0..<h {
                        for x in 0..<w {
                            let from = ((y / scale) * image.width + x / scale) * 4
                            for c in 0..<4 {
                                let v = pixels[from + c]
                                out[(y * w + x) * 4 + c] = invert && c < 3 ? 255 - v : v
                            }
                        }
                    }
                    let scaled = Image(width: w, height: h, rgba8: out)
                    let png = try PNGEncoder(compressionLevel: level).encode(scaled)
                    outputs.append(RenderedOutput(request: index, variant: variant, image: scaled, bytes: png))
                }
            }
            return BatchRendering(outputs: outputs)
        }
    }

    /// The source decoded as a PNG, whatever its format (so a JPEG fails here, as it would in a
    /// renderer that reads only PNGs).
    static func pngOnly(_ source: ImageSource) throws -> Image {
        try PNGDecoder(source: source).decodeRGBA()
    }

    /// Configuration with test defaults.
    static func configuration(_ inputs: [String], out: String, format: String = "%s", scales: [Int] = [1],
                              jobs: Int = 2, settings: String = "settings-1") -> BatchConfiguration {
        BatchConfiguration(inputs: inputs, outputDirectory: out, naming: try! OutputNaming(format: format),
                           thumbnailSet: set(scales: scales), settings: settings, jobs: jobs)
    }

    /// A set of PNG outputs at whole scales.
    static func set(scales: [Int] = [1]) -> ThumbnailSet {
        ThumbnailSet(options: ThumbnailOptions(), scales: scales.map { Scale($0) })
    }

    /// The variants of `set(scales:)`.
    static func variants(scales: [Int]) -> [ThumbnailVariant] {
        scales.map { ThumbnailVariant(scale: Scale($0), format: .png) }
    }

    /// Every regular file under `root` (relative path → bytes), following no links.
    static func tree(_ root: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return files }
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try! Array(Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
            }
        }
        return files
    }

    /// Modification times (ns) of every file under `root`.
    static func mtimes(_ root: String) -> [String: Int64] {
        tree(root).keys.reduce(into: [:]) { times, relative in
            if case .success(let st) = FileSystem.status(root + "/" + relative) { times[relative] = st.modificationNanoseconds }
        }
    }

    static func readFile(_ path: String) -> [UInt8] { readFile(FilePath(path)) }

    static func readFile(_ path: FilePath) -> [UInt8] {
        guard case .success(let bytes) = FileSystem.read(path) else { return [] }
        return bytes
    }
}

/// Counts renderer calls across worker threads.
final class CallCounter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.wrappingAdd(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

@Suite struct BatchSupportTests {
    @Test func fixturePNGsDecode() throws {
        let image = try PNGDecoder.decode(bytes: Fixture.png(width: 4, height: 3, seed: 2))
        #expect(image.width == 4 && image.height == 3)
    }

    @Test func fakeRendererScales() throws {
        let request = BatchSource.Request(thumbnailSet: Fixture.set(scales: [1, 3]), settings: "", variants: Fixture.variants(scales: [1, 3]))
        let outputs = try Fixture.renderer()(BatchSource(path: "x.png", image: .bytes(Fixture.png()), requests: [request])).outputs
        #expect(outputs.map(\.variant.scale) == [1, 3])
        #expect(outputs.map(\.width) == [3, 9])
        #expect(try PNGDecoder.decode(bytes: outputs[1].bytes).height == 6)
    }
}
