import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// The memory a job plans from the header, the budget that refuses an image before it is
/// decoded, and the plan against the peak the binary really reaches.
@Suite struct MemoryPlanTests {
    static func plan(_ source: ImageSource, scales: [Int] = [1], options: ThumbnailOptions = ThumbnailOptions()) throws -> (MemoryPlan, DecodePlan) {
        let decoder = try source.openDecoder(limits: options.limits)
        let thumbnailer = Thumbnailer(options: options)
        let decoding = DecodePlan(header: decoder.header, decoder: type(of: decoder), options: options,
                                  scales: scales) { thumbnailer.plan(sourceWidth: $0, sourceHeight: $1, scale: $2) }
        let fits = scales.map { thumbnailer.plan(sourceWidth: decoding.width, sourceHeight: decoding.height, scale: $0) }
        return (MemoryPlan(header: decoder.header, decoding: decoding, fits: fits, kernel: options.kernel, decoderBytes: decoder.workingBytes), decoding)
    }

    static let bomb = ImageSource.file(Fixtures.path("hostile/bomb-real-15000.png"))

    /// 15000x15000 1-bit gray: streamed, it needs a few MiB, for one scale or two (both sizes
    /// from one pass over the rows); decoded whole (two filters cannot share the pass), the 4
    /// bytes a pixel of the decoded image (900 MB) and more.
    @Test func streamingPlansWithoutTheDecodedImage() throws {
        let (streamed, streamedPlan) = try Self.plan(Self.bomb)
        #expect(streamedPlan.streams)
        #expect(streamed.bytes < 16 << 20)
        let (two, twoPlan) = try Self.plan(Self.bomb, scales: [1, 2])
        #expect(twoPlan.streams && two.bytes < 20 << 20)
        let decoder = try Self.bomb.openDecoder(limits: .default)
        let thumbnailer = Thumbnailer(options: ThumbnailOptions())
        let fits = [1, 2].map { thumbnailer.plan(sourceWidth: 15000, sourceHeight: 15000, scale: $0) }
        let wholePlan = DecodePlan(header: decoder.header, decoder: type(of: decoder), options: thumbnailer.options, oneFilter: false) { _, _ in fits }
        #expect(!wholePlan.streams)
        let whole = MemoryPlan(header: decoder.header, decoding: wholePlan, fits: fits, kernel: .lanczos3, decoderBytes: decoder.workingBytes)
        #expect(whole.bytes >= 4 * 15000 * 15000)
        #expect(whole.bytes < 4 * 15000 * 15000 + (16 << 20))
    }

    @Test func progressiveJPEGsPlanTheirCoefficients() throws {
        let pixels = JPEGFixtures.rgb(width: 640, height: 480) { x, y in (UInt8(x % 256), UInt8(y % 256), 7) }
        let baseline = try Self.plan(.bytes(JPEGFixtures.encode(pixels, width: 640, height: 480))).0
        let progressive = try Self.plan(.bytes(JPEGFixtures.encode(pixels, width: 640, height: 480, progressive: true))).0
        #expect(progressive.bytes - baseline.bytes == 2 * 3 * 640 * 480)
    }

    @Test func anImageOverTheBudgetIsRefusedFromItsHeader() throws {
        var options = ThumbnailOptions()
        let needed = try Self.plan(Self.bomb, scales: [1, 2]).0.bytes
        options.limits.maxMemory = needed - 1
        let refusal = ThumbnailError.decode(.limitExceeded(LimitExceeded(limit: .memory, width: 15000, height: 15000,
                                                                          actual: needed, allowed: needed - 1)))
        #expect(throws: refusal) { try Thumbnailer(options: options).thumbnails(of: Self.bomb, scales: [1, 2]) }
        #expect(refusal.message.hasPrefix("image is 15000x15000 and needs "))
        #expect(refusal.message.hasSuffix("MiB of memory, above the limit of \(LimitExceeded.size(needed - 1))"))
        // The same budget streams one scale easily.
        options.size = ThumbnailSize(width: 16, height: 16)
        #expect(try Thumbnailer(options: options).thumbnails(of: Self.bomb).count == 1)
    }

    @Test func sizesReadAsPeopleWriteThem() {
        #expect(LimitExceeded.size(512) == "512 bytes")
        #expect(LimitExceeded.size(512 << 20) == "512 MiB")
        #expect(LimitExceeded.size(3 << 29) == "1.5 GiB")
        #expect(LimitExceeded.size(1_000_000) == "976.6 KiB")
    }

    static let hasTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Peak resident memory of one `thumbgen -j1` run, in bytes (GNU time forks it from itself, so
    /// the test process's own size does not leak into the figure).
    static func peak(_ arguments: [String]) throws -> UInt64 {
        let report = Fixtures.temporaryDirectory("peak") + "/rss"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report, BuiltBinary.path] + arguments + ["-j1", "--force", "--progress", "never"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        return try #require(UInt64(text.split(separator: "\n").last.map(String.init) ?? "")) * 1024
    }

    /// The plan the binary makes for a file at these scales and box.
    static func planned(_ path: String, scales: [Int], size: Int, shrinkOnLoad: Bool = true) throws -> UInt64 {
        var options = ThumbnailOptions(size: ThumbnailSize(width: size, height: size))
        options.shrinkOnLoad = shrinkOnLoad
        let decoder = try ImageSource.file(path).openDecoder(limits: options.limits)
        let thumbnailer = Thumbnailer(options: options)
        let decoding = DecodePlan(header: decoder.header, decoder: type(of: decoder), options: options,
                                  scales: scales) { thumbnailer.plan(sourceWidth: $0, sourceHeight: $1, scale: $2) }
        let fits = scales.map { thumbnailer.plan(sourceWidth: decoding.width, sourceHeight: decoding.height, scale: $0) }
        return MemoryPlan(header: decoder.header, decoding: decoding, fits: fits, kernel: options.kernel, decoderBytes: decoder.workingBytes).bytes
    }

    /// The documented per-job formula bounds what the process really holds, beyond what it holds
    /// for a 3x2 image, on every path: streamed, decoded whole, 16-bit, progressive, rotated,
    /// colour-converted, WebP scaled on load, GIF and TIFF rows. And it is not a loose bound: the whole-image cases use at least a third of
    /// it (the 40 bytes an output pixel is planned at allow for every copy the compose step can make).
    @Test(.enabled(if: BuildConfiguration.isRelease && hasTime, "release build with GNU time"))
    func thePlanBoundsThePeak() throws {
        let root = Fixtures.temporaryDirectory("plan")
        let noise = JPEGFixtures.rgb(width: 1600, height: 1200) { x, y in (UInt8((x * 7 + y) % 251), UInt8((x * y) % 241), UInt8(y % 256)) }
        let progressive = root + "/progressive.jpg"
        _ = FileManager.default.createFile(atPath: progressive, contents: Data(JPEGFixtures.encode(noise, width: 1600, height: 1200,
                                                                                                 quality: 90, progressive: true)))
        let baseline = try Self.peak([Fixtures.path("hostile/good-rgb.png"), "-o", root + "/tiny", "--size", "2"])
        let bomb = Fixtures.path("hostile/bomb-real-15000.png")
        let cases: [(path: String, scales: [Int], size: Int, shrink: Bool, tight: Bool)] = [
            (bomb, [1], 128, true, false),
            (bomb, [1, 2], 128, true, false),   // streamed: two filter windows planned at their widest
            (bomb, [1, 2, 3], 400, true, true),
            (Fixtures.path("photos/cat-rgb16.png"), [1, 2], 64, true, false),
            (progressive, [1], 256, false, true),
            (progressive, [1, 2], 256, false, true),
            (Fixtures.path("fuzz-seeds/oriented.jpg"), [1], 32, false, false),
            (Fixtures.path("fuzz-seeds/cmyk.jpg"), [1, 2], 32, true, false),
            // WebP scaled on load, and at full size (lossless: libwebp's own copy); GIF and TIFF
            // rows streamed (an interlaced GIF's kept indexes), and decoded whole.
            (Fixtures.path("webp-shrink/lossy.webp"), [1], 40, true, false),
            (Fixtures.path("webp-shrink/lossless.webp"), [1, 2], 40, false, false),
            (Fixtures.path("gif/interlaced.gif"), [1], 20, true, false),
            (Fixtures.path("gif/opaque.gif"), [1, 2], 20, true, false),
            (Fixtures.path("tiff/rgb.tif"), [1], 20, true, false),
            (Fixtures.path("tiff/cmyk.tif"), [1, 2], 20, true, false),
        ]
        for (index, c) in cases.enumerated() {
            var arguments = [c.path, "-o", root + "/out\(index)", "--size", "\(c.size)", "--scales", c.scales.map(String.init).joined(separator: ",")]
            if !c.shrink { arguments.append("--no-shrink-on-load") }
            let measured = try Self.peak(arguments)
            let plan = try Self.planned(c.path, scales: c.scales, size: c.size, shrinkOnLoad: c.shrink)
            let own = measured > baseline ? measured - baseline : 0
            #expect(own <= plan, "\(c.path) \(c.scales): held \(own >> 10) KiB, planned \(plan >> 10) KiB")
            if c.tight { #expect(own * 3 >= plan, "\(c.path) \(c.scales): held \(own >> 10) KiB, planned \(plan >> 10) KiB") }
        }
    }
}
