import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// AVIF output: the same bytes every time (one encoder thread), alpha kept, the chroma and effort
/// settings taking effect, and the file read back by an independent decoder — libheif's own
/// heif-convert (libheif-examples, with libaom or dav1d, not thumbgen's decoder plugin) to PNG, read
/// by Pillow — within a PSNR bar of the pixels given.
@Suite struct AVIFEncoderTests {
    /// A 96×64 test card: gradients, hard edges and colour, with a transparent corner when asked.
    static func card(alpha: Bool) -> Image {
        var rgba = [UInt8](repeating: 0, count: 96 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<96 {
                let i = (y * 96 + x) * 4
                rgba[i] = UInt8(x * 255 / 95)
                rgba[i + 1] = UInt8(y * 255 / 63)
                rgba[i + 2] = (x / 12 + y / 16) % 2 == 0 ? 200 : 40
                rgba[i + 3] = alpha && x < 32 && y < 32 ? UInt8((x + y) * 4) : 255
            }
        }
        return Image(width: 96, height: 64, rgba8: rgba)
    }

    @Test func theLibraryHasLibaom() {
        #expect(AVIFEncoder.isAvailable, "libheif without libaom's AV1 encoder: make deps installs it")
        #expect(CodecVersions.all.contains { $0.hasPrefix("libaom ") && !$0.contains("none") })
    }

    @Test func sameBytesEveryTimeAndAcrossThreads() throws {
        let image = Self.card(alpha: true)
        let first = try AVIFEncoder().encode(image)
        #expect(try AVIFEncoder().encode(image) == first)
        // Encoded on several threads at once: still the same bytes.
        let results = UnsafeSendableBox([[UInt8]](repeating: [], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            results.set(index, (try? AVIFEncoder().encode(image)) ?? [])
        }
        #expect(results.values.allSatisfy { $0 == first })
        #expect(Array(first[4..<12]) == Array("ftypavif".utf8))
    }

    @Test func settingsChangeTheFile() throws {
        let image = Self.card(alpha: false)
        let base = try AVIFEncoder().encode(image)
        #expect(try AVIFEncoder(quality: 90).encode(image).count > base.count)
        #expect(try AVIFEncoder(chroma: .full).encode(image) != base)
        #expect(try AVIFEncoder(effort: 0).encode(image) != base)
        #expect(throws: EncodeError.self) { try AVIFEncoder(quality: 0).encode(image) }
        #expect(throws: EncodeError.self) { try AVIFEncoder(effort: 10).encode(image) }
    }

    /// Decoded by heif-convert and Pillow: size, alpha and PSNR of each channel against the input.
    @Test(arguments: [false, true]) func anIndependentDecoderReadsIt(alpha: Bool) throws {
        let image = Self.card(alpha: alpha)
        let folder = Fixtures.temporaryDirectory("avif")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, encoder) in [("q50", AVIFEncoder()), ("q90-444", AVIFEncoder(quality: 90, chroma: .full))] {
            let avif = folder + "/\(name).avif", png = folder + "/\(name).png"
            try Data(try encoder.encode(image)).write(to: URL(fileURLWithPath: avif))
            let convert = try ExternalTool.run("/usr/bin/heif-convert", [avif, png])
            #expect(convert.status == 0, "\(convert.out)")
            let script = """
            from PIL import Image
            im = Image.open('\(png)')
            print(im.size[0], im.size[1], im.mode)
            print(' '.join(str(v) for v in im.convert('RGBA').tobytes()))
            """
            let out = try ExternalTool.run("/usr/bin/python3", ["-c", script])
            #expect(out.status == 0, "\(out.out)")
            let lines = out.out.split(separator: "\n")
            #expect(lines.first == (alpha ? "96 64 RGBA" : "96 64 RGB"))
            let decoded = lines.count > 1 ? lines[1].split(separator: " ").compactMap { UInt8($0) } : []
            try #require(decoded.count == image.rgba8.count)
            let original = image.rgba8
            for channel in 0..<(alpha ? 4 : 3) {
                var squared = 0.0
                for i in stride(from: channel, to: original.count, by: 4) {
                    // Colour under full transparency is not kept (nor meant to be): weigh by alpha.
                    let weight = channel == 3 ? 1 : Double(original[i - channel + 3]) / 255
                    let d = Double(Int(original[i]) - Int(decoded[i])) * weight
                    squared += d * d
                }
                let psnr = 10 * log10(255 * 255 / max(squared / Double(96 * 64), 1e-9))
                // Quality 50 keeps 32 dB on this card; 90 with full chroma, 38.
                #expect(psnr > (name == "q50" ? 32 : 38), "\(name) channel \(channel): \(psnr) dB")
            }
        }
    }
}

/// Results written from concurrent threads, one slot each.
final class UnsafeSendableBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T]
    init(_ values: [T]) { storage = values }
    func set(_ index: Int, _ value: T) { lock.lock(); storage[index] = value; lock.unlock() }
    var values: [T] { lock.lock(); defer { lock.unlock() }; return storage }
}
