import Testing
@testable import ThumbKit

/// The memory a job plans from the header, and the budget that refuses an image before it is
/// decoded.
@Suite struct MemoryPlanTests {
    static func plan(_ source: ImageSource, scales: [Int] = [1], options: ThumbnailOptions = ThumbnailOptions()) throws -> (MemoryPlan, DecodePlan) {
        let decoder = try source.openDecoder(limits: options.limits)
        let thumbnailer = Thumbnailer(options: options)
        let decoding = DecodePlan(header: decoder.header, reductions: type(of: decoder).reductions, options: options,
                                  scales: scales) { thumbnailer.plan(sourceWidth: $0, sourceHeight: $1, scale: $2) }
        let fits = scales.map { thumbnailer.plan(sourceWidth: decoding.width, sourceHeight: decoding.height, scale: $0) }
        return (MemoryPlan(header: decoder.header, decoding: decoding, fits: fits, kernel: options.kernel), decoding)
    }

    static let bomb = ImageSource.file(Fixtures.path("hostile/bomb-real-15000.png"))

    /// 15000x15000 1-bit gray: streamed, it needs a few MiB; decoded whole for two scales, the
    /// 4 bytes a pixel of the decoded image (900 MB) and more.
    @Test func streamingPlansWithoutTheDecodedImage() throws {
        let (streamed, streamedPlan) = try Self.plan(Self.bomb)
        #expect(streamedPlan.streams)
        #expect(streamed.bytes < 16 << 20)
        let (whole, wholePlan) = try Self.plan(Self.bomb, scales: [1, 2])
        #expect(!wholePlan.streams)
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
        #expect(refusal.message.hasPrefix("image is 15000x15000 and needs 8"))
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
}
