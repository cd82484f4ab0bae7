import CLibTIFF
import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// 8-bit RGB and gray TIFFs in LZW strips, which CLibTIFF decodes itself (`lzw.c`) rather than
/// through libtiff: every layout libtiff's `tiffcp` writes gives the pixels of the uncompressed
/// file, and a damaged file gives what libtiff's own scanline reading gives (`tiffcp` reads it the
/// way CLibTIFF did before, and still does from the first strip that is not a regular stream).
@Suite struct TIFFLZWTests {
    /// The 320×480 cat photo's colour samples, or its green ones as gray.
    static func samples(gray: Bool) throws -> (width: Int, height: Int, bytes: [UInt8]) {
        let image = try ImageSource.bytes(Fixtures.bytes("photos/cat-rgba8.png")).decodeAsStored()
        let rgba = image.rgba8
        var bytes: [UInt8] = []
        for pixel in 0..<(image.width * image.height) {
            if gray { bytes.append(rgba[4 * pixel + 1]) } else { bytes += rgba[4 * pixel..<4 * pixel + 3] }
        }
        return (image.width, image.height, bytes)
    }

    /// A little-endian TIFF of `bytes` in one uncompressed strip.
    static func uncompressedTIFF(width: Int, height: Int, gray: Bool, bytes: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let samples = gray ? 1 : 3
        let entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
            (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, gray ? 1 : 2),
            (273, 4, 1, 8), (277, 3, 1, samples), (278, 4, 1, height), (279, 4, 1, bytes.count), (284, 3, 1, 1),
        ]
        // Header, the strip, then the directory (BitsPerSample of 3 counts as 8 for each, as one
        // value is read for all samples by libtiff when they agree).
        var file: [UInt8] = Array("II".utf8) + u16(42) + u32(8 + bytes.count) + bytes
        file += u16(entries.count)
        for entry in entries {
            file += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            file += entry.type == 3 ? u16(entry.value) + u16(0) : u32(entry.value)
        }
        return file + u32(0)
    }

    /// `tiffcp ARGUMENTS` of `input`: its status, the file it wrote (empty when it wrote none) and
    /// what it printed.
    static func tiffcp(_ arguments: [String], _ input: [UInt8]) throws -> (status: Int32, output: [UInt8], out: String) {
        let directory = Fixtures.temporaryDirectory("tiff-lzw")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = directory + "/in.tif", target = directory + "/out.tif"
        FileManager.default.createFile(atPath: source, contents: Data(input))
        let run = try ExternalTool.run("/usr/bin/tiffcp", arguments + [source, target])
        return (run.status, FileManager.default.contents(atPath: target).map { [UInt8]($0) } ?? [], run.out)
    }

    static func decode(_ tiff: [UInt8]) throws(DecodeError) -> Image { try ImageSource.bytes(tiff).decodeAsStored() }

    /// LZW with and without the horizontal predictor, in strips of one row, a few rows, and the
    /// whole image (thousands of codes a strip: 12-bit codes and Clears).
    @Test(arguments: [false, true])
    func everyStripLayoutGivesTheUncompressedPixels(gray: Bool) throws {
        let source = try Self.samples(gray: gray)
        let plain = Self.uncompressedTIFF(width: source.width, height: source.height, gray: gray, bytes: source.bytes)
        let expected = try Self.decode(plain)
        let samples = gray ? 1 : 3
        #expect(expected.rgba8.enumerated().allSatisfy { index, value in
            index % 4 == 3 ? value == 255 : value == source.bytes[index / 4 * samples + (gray ? 0 : index % 4)]
        })
        for compression in ["lzw", "lzw:2"] {
            for rows in [1, 7, 64, source.height] {
                let lzw = try Self.tiffcp(["-c", compression, "-r", "\(rows)"], plain)
                #expect(lzw.status == 0)
                #expect(try Self.field(TIFFDirectory.Tag.compression, of: lzw.output) == [5], "\(compression), \(rows) rows: not LZW")
                #expect(try Self.decode(lzw.output) == expected, "\(compression), \(rows) rows a strip")
            }
        }
    }

    /// The decoder itself, on every strip of those files: each is a regular stream it decodes to
    /// the uncompressed bytes (so the reader never needs libtiff for them), and each way of
    /// breaking a stream is declined, for libtiff to read.
    @Test func stripsAreDecodedHereOrDeclined() throws {
        let source = try Self.samples(gray: false)
        let plain = Self.uncompressedTIFF(width: source.width, height: source.height, gray: false, bytes: source.bytes)
        let rowBytes = source.width * 3
        for rows in [1, 7, source.height] {
            let lzw = try Self.tiffcp(["-c", "lzw", "-r", "\(rows)"], plain).output
            let strips = try Self.strips(lzw)
            for (index, strip) in strips.enumerated() {
                let first = index * rows * rowBytes, size = min(rows * rowBytes, source.bytes.count - first)
                let data = Array(lzw[strip.offset..<strip.offset + strip.count])
                var out = [UInt8](repeating: 0, count: size)
                #expect(Self.decodeStrip(data, into: &out) == 1, "\(rows) rows a strip, strip \(index)")
                let decodedAsStored = out == Array(source.bytes[first..<first + size])
                #expect(decodedAsStored, "\(rows) rows a strip, strip \(index)")
            }
            if rows == source.height {
                let data = Array(lzw[strips[0].offset..<strips[0].offset + strips[0].count])
                var out = [UInt8](repeating: 0, count: source.bytes.count)
                #expect(Self.decodeStrip(Array(data.prefix(data.count / 2)), into: &out) == 0, "data ending early")
                #expect(Self.decodeStrip([0, 1] + data.dropFirst(2), into: &out) == 0, "old-style codes")
                #expect(Self.decodeStrip([0x40] + data.dropFirst(1), into: &out) == 0, "no Clear first")
                // 9-bit codes: Clear, End; then Clear, 65, 300 (259 is the next to be defined).
                #expect(Self.decodeStrip([0x80, 0x40, 0x40], into: &out) == 0, "End before the strip is full")
                #expect(Self.decodeStrip([0x80, 0x10, 0x65, 0x80] + [UInt8](repeating: 0, count: 8), into: &out) == 0,
                        "a code not yet defined")
            }
        }
    }

    static func decodeStrip(_ data: [UInt8], into out: inout [UInt8]) -> Int32 {
        data.withUnsafeBufferPointer { data in
            out.withUnsafeMutableBufferPointer { tg_tiff_lzw_decode_strip(data.baseAddress, data.count, $0.baseAddress, $0.count) }
        }
    }

    /// Strips damaged in the ways LZW data goes wrong, each decoded as libtiff decodes it: the
    /// same pixels where libtiff reads the file, and where it cannot, its message (or truncation).
    @Test func damagedStripsDecodeAsLibtiffDecodesThem() throws {
        let source = try Self.samples(gray: false)
        let plain = Self.uncompressedTIFF(width: source.width, height: source.height, gray: false, bytes: source.bytes)
        let lzw = try Self.tiffcp(["-c", "lzw", "-r", "16"], plain).output
        let strips = try Self.strips(lzw)
        #expect(strips.count == 30)
        var damaged: [(String, [UInt8])] = []
        func damage(_ name: String, _ change: (inout [UInt8]) -> Void) {
            var copy = lzw
            change(&copy)
            damaged.append((name, copy))
        }
        let middle = strips[12]
        damage("a code overwritten") { for i in 0..<4 { $0[middle.offset + middle.count / 2 + i] = 0xFF } }
        damage("a code early in the strip") { $0[middle.offset + 3] ^= 0x5A }
        damage("a strip of zeros") { for i in 0..<middle.count { $0[middle.offset + i] = 0 } }
        damage("old-style codes announced") { $0[middle.offset] = 0; $0[middle.offset + 1] = 1 }
        damage("no Clear first") { $0[middle.offset] = 0x40 }
        damage("the strip ends early") { for i in middle.count * 3 / 4..<middle.count { $0[middle.offset + i] = 0x80 } }
        var random = SeededGenerator(seed: 31)
        for round in 0..<12 {
            damage("random bytes \(round)") {
                for _ in 0..<(1 + random.below(3)) {
                    let strip = strips[random.below(strips.count)]
                    $0[strip.offset + random.below(strip.count)] = UInt8(random.below(256))
                }
            }
        }
        for (name, file) in damaged {
            let reference = try Self.tiffcp(["-c", "none"], file)
            if reference.status == 0 {
                #expect(try Self.decode(file) == (try Self.decode(reference.output)), "\(name)")
            } else {
                // libtiff's first message, which tiffcp prints after the file's name.
                let first = reference.out.split(separator: "\n").first.map { line in
                    String(line.drop { $0 != " " }.dropFirst().prefix { $0 != "." })
                } ?? ""
                do throws(DecodeError) {
                    _ = try Self.decode(file)
                    Issue.record("\(name): decoded, where libtiff says \(first)")
                } catch {
                    if case .corrupt(.tiff, let reason) = error {
                        // tiffcp reads whole strips, so the scanline and byte counts in the
                        // message differ from a read by rows; the words are libtiff's.
                        func words(_ message: String) -> String { String(message.lowercased().prefix { !$0.isNumber }) }
                        #expect(words(reason) == words(first), "\(name)")
                    } else {
                        #expect(error == .truncated, "\(name): \(error), where libtiff says \(first)")
                    }
                }
            }
        }
    }

    /// The offset and byte count of each strip of a TIFF's first directory.
    static func strips(_ tiff: [UInt8]) throws -> [(offset: Int, count: Int)] {
        zip(try field(TIFFDirectory.Tag.stripOffsets, of: tiff), try field(TIFFDirectory.Tag.stripByteCounts, of: tiff))
            .map { (offset: $0, count: $1) }
    }

    /// The values of SHORT or LONG field `tag` in a TIFF's first directory, as the camera-RAW
    /// container reader reads them.
    static func field(_ tag: UInt16, of tiff: [UInt8]) throws -> [Int] {
        let container = try #require(try TIFFContainer(RAWBytes(ImageInput.open(.bytes(tiff), limits: .default))))
        let entry = try #require(try container.directories().first?.entries[tag], "no field \(tag)")
        return try container.values(entry).map(Int.init)
    }
}
