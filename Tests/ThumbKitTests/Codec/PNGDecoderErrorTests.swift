import Foundation
import Testing
@testable import ThumbKit
import TestSupport

@Suite struct PNGDecoderErrorTests {
    let sample = Fixtures.path("pngsuite/basn2c08.png")

    func bytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path)!) }

    @Test func pixelLimitIsCheckedFromTheHeader() {
        var limits = DecodeLimits.default
        limits.maxPixels = 32 * 32 - 1
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .pixels, width: 32, height: 32, actual: 1024, allowed: 1023))) {
            _ = try PNGDecoder(path: sample, limits: limits)
        }
        limits.maxPixels = 32 * 32
        #expect(throws: Never.self) { _ = try PNGDecoder.decode(path: sample, limits: limits) }
        limits.maxPixels = 0
        #expect(throws: Never.self) { _ = try PNGDecoder.decode(path: sample, limits: limits) }
    }

    @Test func hugeDeclaredDimensionsFailBeforeAllocating() {
        // A valid IHDR declaring 100000 x 100000, then nothing: must fail on the limit, not on memory.
        var png = bytes(sample)
        png.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        let crc = CRC32.checksum(png[12..<29])
        png.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xff), UInt8(crc >> 8 & 0xff), UInt8(crc & 0xff)])
        let error = #expect(throws: DecodeError.self) { _ = try PNGDecoder.decode(bytes: png) }
        guard case .limitExceeded(let limit) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(limit.limit == .pixels && limit.actual == 10_000_000_000)
    }

    @Test func adler32IsNotCheckedButCRCIs() throws {
        // The zlib stream's Adler-32 is skipped for speed; the IDAT CRC still guards the bytes.
        let original = bytes(sample)
        let idat = try #require(Self.lastIDAT(in: original))
        let expected = try PNGDecoder.decode(bytes: original)

        var badAdler = original
        badAdler[idat.dataEnd - 1] ^= 0xff
        let crc = CRC32.checksum(badAdler[(idat.start + 4)..<idat.dataEnd])
        badAdler.replaceSubrange(idat.dataEnd..<(idat.dataEnd + 4),
                                 with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xff), UInt8(crc >> 8 & 0xff), UInt8(crc & 0xff)])
        #expect(try PNGDecoder.decode(bytes: badAdler) == expected)

        var badCRC = original
        badCRC[idat.dataEnd - 1] ^= 0xff
        let error = #expect(throws: DecodeError.self) { _ = try PNGDecoder.decode(bytes: badCRC) }
        #expect(error?.message.contains("CRC") == true, "\(String(describing: error))")
    }

    /// The last IDAT chunk: offset of its length field, and the end of its data (where its CRC starts).
    static func lastIDAT(in png: [UInt8]) -> (start: Int, dataEnd: Int)? {
        var offset = 8, found: (Int, Int)?
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if Array(png[(offset + 4)..<(offset + 8)]) == Array("IDAT".utf8) { found = (offset, offset + 8 + length) }
            offset += 12 + length
        }
        return found
    }

    @Test func fileByteLimit() {
        var limits = DecodeLimits.default
        limits.maxFileBytes = 100
        let size = UInt64(bytes(sample).count)
        let error = #expect(throws: DecodeError.self) { _ = try PNGDecoder.decode(path: sample, limits: limits) }
        guard case .limitExceeded(let limit) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(limit.limit == .fileBytes && limit.allowed == 100 && limit.actual > 100 && limit.actual <= size)
        // The same limit, through the front door, for a file and for bytes.
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .fileBytes, actual: size, allowed: 100))) {
            _ = try ImageSource.file(sample).decodeAsStored(limits: limits)
        }
    }

    @Test func truncationAtEveryOffsetFailsCleanly() {
        let png = bytes(sample)
        var failures = 0
        for length in stride(from: 0, to: png.count, by: 7) {
            do {
                _ = try PNGDecoder.decode(bytes: Array(png[0..<length]))
            } catch {
                failures += 1
            }
        }
        #expect(failures == (png.count + 6) / 7)
    }

    @Test func notAPNG() {
        #expect(throws: DecodeError.empty) { _ = try PNGDecoder.decode(bytes: []) }
        #expect(throws: DecodeError.unrecognised) { _ = try PNGDecoder.decode(bytes: Array("BM and more text".utf8)) }
        #expect(throws: DecodeError.truncated) { _ = try PNGDecoder.decode(bytes: [0x89, 0x50, 0x4E]) }
        // The front door says the same before any decoder is chosen.
        #expect(throws: DecodeError.empty) { _ = try ImageSource.bytes([]).header() }
        #expect(throws: DecodeError.unrecognised) { _ = try ImageSource.bytes(Array("BM and more text".utf8)).header() }
        #expect(throws: DecodeError.truncated) { _ = try ImageSource.bytes([0x89, 0x50, 0x4E]).header() }
        #expect(throws: DecodeError.truncated) { _ = try ImageSource.bytes([0xFF, 0xD8]).header() }
    }

    @Test func unreadablePaths() throws {
        #expect(throws: DecodeError.unreadable(reason: "no such file or directory")) {
            _ = try PNGDecoder(path: "/nonexistent/x.png")
        }
        #expect(throws: DecodeError.unreadable(reason: "is a directory")) { _ = try PNGDecoder(path: Fixtures.directory) }
        let fifo = Fixtures.temporaryDirectory("fifo") + "/pipe.png"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: DecodeError.unreadable(reason: "not a regular file")) { _ = try PNGDecoder(path: fifo) }
        #expect(throws: DecodeError.unreadable(reason: "not a regular file")) { _ = try ImageSource.file(fifo).header() }
    }

    @Test func messagesAreOneLine() {
        let errors: [DecodeError] = [.unreadable(reason: "No such file or directory"), .truncated, .outOfMemory,
                                     .corrupt(.png, reason: "IHDR: CRC error"), .empty, .unrecognised]
        for error in errors { #expect(!error.message.contains("\n") && !error.message.isEmpty) }
        #expect(DecodeError.unreadable(reason: "No such file or directory").message == "cannot read: no such file or directory")
        #expect(DecodeError.corrupt(.png, reason: "IHDR: CRC error").message == "corrupt PNG: IHDR: CRC error")
    }
}

/// CRC-32 as PNG uses it, to build test files with valid chunk checksums.
enum CRC32 {
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xffffffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xedb88320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xffffffff
    }
}
