import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Mutated files, generated deterministically from the PngSuite on every run: each must either
/// decode or fail with a `DecodeError` — never crash, hang or allocate without bound.
@Suite struct HostilePNGTests {
    enum Mutation: CaseIterable, Sendable {
        case truncate, flipByte, lieAboutChunkLength, duplicateChunk, zeroRun
    }

    static func mutate(_ bytes: [UInt8], _ mutation: Mutation, _ rng: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        switch mutation {
        case .truncate:
            out = Array(out[0..<rng.below(out.count)])
        case .flipByte:
            for _ in 0..<1 + rng.below(4) {
                let i = 8 + rng.below(out.count - 8)
                out[i] ^= UInt8(1 << rng.below(8))
            }
        case .lieAboutChunkLength:
            let offsets = chunkOffsets(out)
            let at = offsets[rng.below(offsets.count)]
            let lies: [UInt32] = [0, 1, 0x7fffffff, 0xffffffff, UInt32(rng.below(1 << 20))]
            let lie = lies[rng.below(lies.count)]
            out.replaceSubrange(at..<at + 4, with: [UInt8(lie >> 24), UInt8(lie >> 16 & 0xff), UInt8(lie >> 8 & 0xff), UInt8(lie & 0xff)])
        case .duplicateChunk:
            let offsets = chunkOffsets(out)
            let at = offsets[rng.below(offsets.count)]
            let length = Int(out[at]) << 24 | Int(out[at + 1]) << 16 | Int(out[at + 2]) << 8 | Int(out[at + 3])
            let end = min(at + 12 + length, out.count)
            out.insert(contentsOf: out[at..<end], at: at)
        case .zeroRun:
            let start = 8 + rng.below(out.count - 8)
            let end = min(out.count, start + 1 + rng.below(64))
            for i in start..<end { out[i] = 0 }
        }
        return out
    }

    /// Offsets of each chunk's length field.
    static func chunkOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets = [Int]()
        var at = 8
        while at + 12 <= bytes.count {
            offsets.append(at)
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            at += 12 + length
        }
        return offsets.isEmpty ? [8] : offsets
    }

    @Test func mutatedFilesDecodeOrFailCleanly() throws {
        let sources = Fixtures.validPngSuiteNames.enumerated().filter { $0.offset % 4 == 0 }.map { $0.element }
        var rng = SeededGenerator(seed: 2026)
        var decoded = 0, failed = 0
        for name in sources {
            let original = [UInt8](FileManager.default.contents(atPath: Fixtures.path("pngsuite/" + name))!)
            for mutation in Mutation.allCases {
                for _ in 0..<2 {
                    let bytes = Self.mutate(original, mutation, &rng)
                    do {
                        let image = try PNGDecoder.decode(bytes: bytes, limits: DecodeLimits(maxPixels: 4_000_000))
                        #expect(image.width > 0 && image.height > 0)
                        decoded += 1
                    } catch {
                        #expect(!error.message.isEmpty && !error.message.contains("\n"))
                        failed += 1
                    }
                }
            }
        }
        #expect(decoded + failed == sources.count * Mutation.allCases.count * 2)
        #expect(decoded + failed >= 400)
        #expect(failed > decoded / 2, "most mutations must be caught")
    }

    @Test func everyCorruptSuiteFileFailsWithAReason() {
        for name in Fixtures.invalidPngSuiteNames {
            do {
                _ = try PNGDecoder.decode(path: Fixtures.path("pngsuite/" + name))
                Issue.record("\(name) decoded")
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
