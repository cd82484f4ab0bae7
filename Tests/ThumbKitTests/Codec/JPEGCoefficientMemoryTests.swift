import Glibc
import Testing
import TestSupport
@testable import ThumbKit

/// A progressive file's whole-image coefficients live in memory the reader's thread keeps from
/// file to file (CLibJPEG's coefficient_arrays.c). libjpeg writes only a scan's nonzero
/// coefficients, into memory it expects zeroed, so reused memory must decode as fresh memory does.
/// Each test runs synchronously, on one thread.
@Suite struct JPEGCoefficientMemoryTests {
    /// Uniform random RGB samples.
    static func noise(seed: UInt64, width: Int, height: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Noise at quality 100: every coefficient of every block is sent, so reused memory is full.
    static let noisy = [1, 2].map { seed in
        JPEGFixtures.encode(noise(seed: seed, width: 256, height: 256), width: 256, height: 256, quality: 100, progressive: true)
    }
    static let gradient = JPEGFixtures.rgb(width: 200, height: 120) { x, y in (UInt8(x), UInt8(y * 2), 90) }
    /// Smooth: almost all its AC coefficients are zero, and so never written by its scans.
    static let smooth = JPEGFixtures.encode(gradient, width: 200, height: 120, progressive: true)

    /// Samples that differ (a count, not the arrays: a failed `==` on them would print both whole).
    static func differences(_ a: Image, _ b: Image) -> Int {
        a.rgba8.count == b.rgba8.count ? zip(a.rgba8, b.rgba8).count { $0 != $1 } : .max
    }

    @Test func aSmoothImageAfterNoisyOnesDecodesAsBefore() throws {
        let first = try JPEGDecoder(bytes: Self.smooth).decodedImage()
        let error = zip(first.rgba8.enumerated().filter { $0.offset % 4 != 3 }.map(\.element), Self.gradient)
            .map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(error <= 6, "the first decode is the gradient (largest error \(error))")
        for jpeg in Self.noisy {
            _ = try JPEGDecoder(bytes: jpeg).decodedImage()
            #expect(Self.differences(try JPEGDecoder(bytes: Self.smooth).decodedImage(), first) == 0)
        }
    }

    @Test func aReaderMidDecodeKeepsItsCoefficientsWhileAnotherDecodes() throws {
        let alone = try JPEGDecoder(bytes: Self.noisy[0]).decodedImage()
        let held = try JPEGDecoder(bytes: Self.noisy[0])
        try held.start(DecodeRequest())   // reads every scan into the coefficient memory
        _ = try JPEGDecoder(bytes: Self.noisy[1]).decodedImage()
        _ = try JPEGDecoder(bytes: Self.smooth).decodedImage()
        guard case .rgba(let image) = try held.decodeImage() else {
            Issue.record("RGBA asked for")
            return
        }
        #expect(Self.differences(image, alone) == 0)
    }

    static let big = JPEGFixtures.encode(noise(seed: 3, width: 1024, height: 1024), width: 1024, height: 1024,
                                         quality: 90, progressive: true)
    static let coefficientBytes = 3 * 1024 * 1024 * 2
    static let coefficientPages = coefficientBytes / 4096

    /// The page faults of decoding `big` at 1/8 scale (so the decoded image adds a few pages only)
    /// right after decoding it once, both under `limits`.
    static func faultsOfTheSecondDecode(limits: DecodeLimits) throws -> Int {
        func minorFaults() -> Int {
            var usage = rusage()
            _ = getrusage(1, &usage)   // RUSAGE_THREAD (glibc names it for _GNU_SOURCE only)
            return usage.ru_minflt
        }
        _ = try JPEGDecoder(bytes: big, limits: limits).decodedImage(reduction: 8)
        let before = minorFaults()
        _ = try JPEGDecoder(bytes: big, limits: limits).decodedImage(reduction: 8)
        return minorFaults() - before
    }

    /// The point of keeping the memory: a second file of the same size faults no pages in for its
    /// coefficients.
    @Test func theNextFileReusesTheThreadsPages() throws {
        let faults = try Self.faultsOfTheSecondDecode(limits: DecodeLimits(maxMemory: UInt64(Self.coefficientBytes) * 5))
        #expect(faults < Self.coefficientPages / 8, "\(faults) page faults for \(Self.coefficientPages) pages of coefficients")
    }

    /// Memory over a quarter of the decode's budget is not kept: each file faults its pages in.
    @Test func memoryOverAQuarterOfTheBudgetIsNotKept() throws {
        let faults = try Self.faultsOfTheSecondDecode(limits: DecodeLimits(maxMemory: UInt64(Self.coefficientBytes) * 3))
        #expect(faults > Self.coefficientPages / 2, "\(faults) page faults for \(Self.coefficientPages) pages of coefficients")
    }
}
