import Testing
@testable import ThumbKit

/// JPEG decoding through libjpeg-turbo, on JPEGs the tests encode themselves.
@Suite struct JPEGDecoderTests {
    /// Four flat quadrants: red, green, blue, and a mid grey, 64 × 48. Flat areas survive JPEG
    /// almost exactly, so colours can be checked within a few levels.
    static let quadrants: [UInt8] = JPEGFixtures.rgb(width: 64, height: 48) { x, y in
        switch (x < 32, y < 24) {
        case (true, true): return (230, 20, 20)
        case (false, true): return (20, 200, 40)
        case (true, false): return (30, 40, 210)
        case (false, false): return (128, 128, 128)
        }
    }

    static func expectQuadrants(_ image: Image, tolerance: Int, sourceLine: SourceLocation = #_sourceLocation) {
        let expected: [(Int, Int, [Int])] = [(8, 8, [230, 20, 20]), (56, 8, [20, 200, 40]),
                                             (8, 40, [30, 40, 210]), (56, 40, [128, 128, 128])]
        let sx = Double(image.width) / 64, sy = Double(image.height) / 48
        for (x, y, colour) in expected {
            let p = JPEGFixtures.pixel(image, Int(Double(x) * sx), Int(Double(y) * sy))
            #expect(zip(p, colour).allSatisfy { abs($0 - $1) <= tolerance }, "at \(x),\(y): \(p) vs \(colour)",
                    sourceLocation: sourceLine)
            #expect(p[3] == 255, sourceLocation: sourceLine)
        }
    }

    @Test(arguments: [JPEGFixtures.Subsampling.s444, .s422, .s420], [false, true])
    func baselineAndProgressiveDecodeToTheirColours(subsampling: JPEGFixtures.Subsampling, progressive: Bool) throws {
        let jpeg = JPEGFixtures.encode(Self.quadrants, width: 64, height: 48, progressive: progressive,
                                       subsampling: subsampling)
        let decoder = try JPEGDecoder(bytes: jpeg)
        #expect(decoder.header == ImageHeader(format: .jpeg, storedWidth: 64, storedHeight: 48, orientation: .topLeft, bitDepth: 8,
                                              hasAlpha: false, colorSource: .sRGB,
                                              scanOrder: progressive ? .progressive : .sequential,
                                              details: .jpeg(colorSpace: .yCbCr, components: 3, adobeMarker: false)))
        let decoded = try decoder.decodedImage()
        #expect(decoded.width == 64 && decoded.height == 48)
        Self.expectQuadrants(decoded, tolerance: 4)
        #expect(decoder.warnings.isEmpty)
    }

    @Test func grayscaleBecomesGrayRGBA() throws {
        let gray = (0..<(32 * 16)).map { UInt8(($0 % 32) * 8) }
        let jpeg = JPEGFixtures.encode(gray, width: 32, height: 16, components: 1, quality: 100)
        let decoder = try JPEGDecoder(bytes: jpeg)
        #expect(decoder.header.details == .jpeg(colorSpace: .gray, components: 1, adobeMarker: false))
        let image = try decoder.decodedImage()
        for x in [0, 10, 31] {
            let p = JPEGFixtures.pixel(image, x, 5)
            #expect(p[0] == p[1] && p[1] == p[2] && p[3] == 255)
            #expect(abs(p[0] - x * 8) <= 3)
        }
    }

    /// libjpeg writes CMYK with an Adobe APP14 marker; Adobe's convention is inverted samples
    /// (255 = no ink), which is what is stored here. Pure inks must come out as their RGB
    /// complements, white paper as white, full black as black.
    @Test(arguments: [false, true])
    func adobeCMYKAndYCCKDecodeToTheNaiveRGB(ycck: Bool) throws {
        // Ink amounts (0 = none) per quadrant: cyan, magenta+yellow (red), none (white), K only.
        let inks: [[UInt8]] = [[255, 0, 0, 0], [0, 255, 255, 0], [0, 0, 0, 0], [0, 0, 0, 255]]
        var stored = [UInt8]()
        for y in 0..<32 {
            for x in 0..<32 {
                let ink = inks[(y < 16 ? 0 : 2) + (x < 16 ? 0 : 1)]
                stored += ink.map { 255 - $0 }
            }
        }
        let jpeg = JPEGFixtures.encode(stored, width: 32, height: 32, components: 4, quality: 100, ycck: ycck)
        let decoder = try JPEGDecoder(bytes: jpeg)
        #expect(decoder.header.details == .jpeg(colorSpace: ycck ? .ycck : .cmyk, components: 4, adobeMarker: true))
        let image = try decoder.decodedImage()
        let expected: [[Int]] = [[0, 255, 255], [255, 0, 0], [255, 255, 255], [0, 0, 0]]
        for (i, at) in [(4, 4), (28, 4), (4, 28), (28, 28)].enumerated() {
            let p = JPEGFixtures.pixel(image, at.0, at.1)
            #expect(zip(p, expected[i]).allSatisfy { abs($0 - $1) <= 3 }, "\(p) vs \(expected[i])")
        }
    }

    @Test func truncatedFileIsAnErrorUnlessPartialIsAllowed() throws {
        let jpeg = JPEGFixtures.encode(Self.quadrants, width: 64, height: 48, quality: 100)
        // Cut halfway through the entropy-coded data (after the SOS marker), not in the header.
        let sos = JPEGDecoderTests.markerOffset(0xDA, in: jpeg)
        let cut = Array(jpeg.prefix(sos + (jpeg.count - sos) / 2))
        #expect(throws: DecodeError.truncated) { try JPEGDecoder(bytes: cut).decodedImage() }
        #expect(throws: DecodeError.truncated) { try DecodedSource.load(cut) }
        // Streamed (one scale, upright, sRGB) and decoded whole (two scales) alike.
        #expect(throws: ThumbnailError.decode(.truncated)) { try Thumbnailer().thumbnails(of: .bytes(cut)) }
        #expect(throws: ThumbnailError.decode(.truncated)) { try Thumbnailer().thumbnails(of: .bytes(cut), scales: [1, 2]) }

        let decoder = try JPEGDecoder(bytes: cut)
        let partial = try decoder.decodedImage(allowPartial: true)
        #expect(partial.width == 64 && partial.height == 48)
        #expect(decoder.wasTruncated)
        #expect(decoder.warnings.contains("Premature end of JPEG file"), "\(decoder.warnings)")
        // The top survives.
        #expect(zip(JPEGFixtures.pixel(partial, 8, 2), [230, 20, 20]).allSatisfy { abs($0 - $1) <= 4 })
        let loaded = try DecodedSource.load(cut, options: DecodedSource.options(allowPartial: true))
        #expect(loaded.warnings.contains("Premature end of JPEG file"))
    }

    @Test func headerOnlyTruncationIsAnError() {
        let jpeg = JPEGFixtures.encode(Self.quadrants, width: 64, height: 48)
        #expect(throws: DecodeError.truncated) { try JPEGDecoder(bytes: Array(jpeg.prefix(40))) }
    }

    @Test func corruptDataIsAWarning() throws {
        var jpeg = JPEGFixtures.encode(Self.quadrants, width: 64, height: 48)
        // Three stray bytes before the SOS marker: libjpeg's "extraneous bytes" warning. (Before
        // EOI they would be swallowed by the entropy decoder's read-ahead.)
        jpeg.insert(contentsOf: [0x12, 0x34, 0x56], at: JPEGDecoderTests.markerOffset(0xDA, in: jpeg))
        let decoder = try JPEGDecoder(bytes: jpeg)
        let image = try decoder.decodedImage()
        #expect(decoder.warnings == ["Corrupt JPEG data: 3 extraneous bytes before marker 0xda"], "\(decoder.warnings)")
        Self.expectQuadrants(image, tolerance: 4)
        #expect(try DecodedSource.load(jpeg).warnings == decoder.warnings)
        // A streamed thumbnail reports the same warnings.
        #expect(try Thumbnailer().thumbnails(of: .bytes(jpeg))[0].warnings == decoder.warnings)
    }

    @Test func notAJPEGAndGarbageAreTypedErrors() {
        #expect(throws: DecodeError.empty) { try JPEGDecoder(bytes: []) }
        #expect(throws: DecodeError.unrecognised) { try JPEGDecoder(bytes: Array("hello".utf8)) }
        // A quantisation table numbered 15 (there are four).
        let badTable: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x0F] + [UInt8](repeating: 1, count: 64) + [0xFF, 0xD9]
        #expect(throws: DecodeError.corrupt(.jpeg, reason: "Bogus DQT index 15")) { try JPEGDecoder(bytes: badTable) }
        #expect(throws: DecodeError.unrecognised) { try ImageSource.bytes(Array("BM6\u{0}\u{0}\u{0}".utf8)).header() }   // BMP
        #expect(throws: DecodeError.truncated) { try ImageSource.bytes(Array("GIF89a".utf8)).header() }
        #expect(DecodeError.unrecognised.message == "not a PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW file")
    }

    @Test func pixelLimitIsCheckedFromTheHeader() throws {
        let jpeg = JPEGFixtures.encode(Self.quadrants, width: 64, height: 48)
        let limits = DecodeLimits(maxPixels: 64 * 48 - 1)
        let pixels = LimitExceeded(limit: .pixels, width: 64, height: 48, actual: 3072, allowed: 3071)
        #expect(throws: DecodeError.limitExceeded(pixels)) { try JPEGDecoder(bytes: jpeg, limits: limits) }
        #expect(pixels.message == "image is 64x48 (3072 pixels), above the limit of 3071 pixels")
        let bytes = LimitExceeded(limit: .fileBytes, actual: UInt64(jpeg.count), allowed: 100)
        #expect(throws: DecodeError.limitExceeded(bytes)) { try JPEGDecoder(bytes: jpeg, limits: DecodeLimits(maxFileBytes: 100)) }
        #expect(bytes.message == "file is larger than the limit of 100 bytes")
        _ = try JPEGDecoder(bytes: jpeg, limits: DecodeLimits(maxPixels: 64 * 48))
        // A header claiming 60000 × 60000 with no data behind it fails on the limit, before any
        // allocation, not on the missing data.
        var huge = jpeg
        let sof = JPEGDecoderTests.markerOffset(0xC0, in: huge)
        huge[sof + 5] = 0xEA; huge[sof + 6] = 0x60; huge[sof + 7] = 0xEA; huge[sof + 8] = 0x60
        do {
            _ = try JPEGDecoder(bytes: huge)
            Issue.record("no limit error")
        } catch {
            guard case .limitExceeded(let limit) = error else { Issue.record("unexpected \(error)"); return }
            #expect(limit.limit == .pixels && limit.width == 60000 && limit.height == 60000)
        }
    }

    /// Damaged files (bytes overwritten, cut short) come back as an image or a typed error: no
    /// crash, no exit, no longjmp into Swift. Deterministic: a fixed linear congruential sequence.
    @Test(arguments: [false, true])
    func damagedFilesFailCleanly(progressive: Bool) {
        let original = JPEGFixtures.encode(Self.quadrants, width: 64, height: 48, progressive: progressive,
                                           subsampling: .s420, exif: JPEGFixtures.exif(orientation: 6, bigEndian: false),
                                           icc: [UInt8](repeating: 7, count: 200))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var decoded = 0, failed = 0
        for round in 0..<300 {
            var bytes = original
            for _ in 0..<(1 + round % 4) { bytes[3 + next() % (bytes.count - 3)] = UInt8(truncatingIfNeeded: next()) }
            if round % 5 == 0 { bytes = Array(bytes.prefix(3 + next() % (bytes.count - 3))) }
            for allowPartial in [false, true] {
                do {
                    let loaded = try DecodedSource.load(bytes, options: DecodedSource.options(allowPartial: allowPartial),
                                                        shrinkTarget: (8, 8))
                    #expect(loaded.image.width > 0)
                    decoded += 1
                } catch {
                    #expect(!error.message.isEmpty)
                    failed += 1
                }
            }
        }
        #expect(decoded > 0 && failed > 0)
    }

    /// Where the first 0xFF `marker` pair is (the encoder's headers hold no other 0xFF bytes).
    static func markerOffset(_ marker: UInt8, in jpeg: [UInt8]) -> Int {
        (0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == marker }!
    }

    @Test func reductionPicksTheSmallestThatKeepsTwiceTheTarget() {
        // 4000 × 3000 to 500 × 375: 1/4 gives 1000 × 750 = exactly twice; 1/8 would be 500 × 375.
        #expect(DecodePlan.reduction(width: 4000, height: 3000, target: (500, 375), available: JPEGDecoder.reductions) == 4)
        #expect(DecodePlan.reduction(width: 4000, height: 3000, target: (501, 375), available: JPEGDecoder.reductions) == 2)
        #expect(DecodePlan.reduction(width: 4000, height: 3000, target: (250, 187), available: JPEGDecoder.reductions) == 8)
        #expect(DecodePlan.reduction(width: 4000, height: 3000, target: (2000, 1500), available: JPEGDecoder.reductions) == 1)
        #expect(DecodePlan.reduction(width: 4000, height: 3000, target: (1000, 751), available: JPEGDecoder.reductions) == 1)
        // Both axes count: a tall target on a wide image.
        #expect(DecodePlan.reduction(width: 4000, height: 3000, target: (100, 1000), available: JPEGDecoder.reductions) == 1)
        // Reduced sizes round up as libjpeg's do: 1001 / 8 → 126 ≥ 2 · 63.
        #expect(DecodePlan.reduction(width: 1001, height: 1001, target: (63, 63), available: JPEGDecoder.reductions) == 8)
    }

    @Test func shrinkOnLoadDecodesAtTheReducedSize() throws {
        let rgb = JPEGFixtures.rgb(width: 64, height: 48) { x, y in (UInt8(x * 4), UInt8(y * 5), 100) }
        let jpeg = JPEGFixtures.encode(rgb, width: 64, height: 48)
        for (target, reduction, width, height) in [((32, 24), 1, 64, 48), ((16, 12), 2, 32, 24),
                                                   ((8, 6), 4, 16, 12), ((4, 3), 8, 8, 6), ((1, 1), 8, 8, 6)] {
            let decoded = try DecodedSource.load(jpeg, shrinkTarget: target)
            #expect(decoded.reduction == reduction && decoded.image.width == width && decoded.image.height == height)
        }
    }

    @Test func exifAndICCAreCollected() throws {
        let exif = JPEGFixtures.exif(orientation: 6, bigEndian: true)
        // A profile larger than one APP2 marker holds (65519 bytes), so it is split over three.
        let profile = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let jpeg = JPEGFixtures.encode(Self.quadrants, width: 64, height: 48, exif: exif, icc: profile)
        let decoder = try JPEGDecoder(bytes: jpeg)
        #expect(decoder.header.orientation == .rightTop)
        #expect(decoder.iccProfile == profile && decoder.header.colorSource == .iccProfile(profile))
        #expect(try JPEGDecoder(bytes: JPEGFixtures.encode(Self.quadrants, width: 64, height: 48)).iccProfile == nil)
    }
}
