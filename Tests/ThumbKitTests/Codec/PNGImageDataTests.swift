import CPNGSystem
import CThumbKernels
import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// CLibPNG inflates and unfilters the image data of the common layouts itself, following libpng's
/// sequential reader, and leaves the rest to libpng. These tests hold it to libpng: the same pixels
/// for every layout, filter, width and split into IDAT chunks, and on damaged files the same
/// pixels or the same error, whether the image is read whole or row by row.
@Suite struct PNGImageDataTests {
    /// The layouts the reader reads itself: (colour type, bit depth, samples a pixel).
    static let ownLayouts: [(colorType: UInt8, depth: UInt8, channels: Int)] =
        [(0, 8, 1), (4, 8, 2), (2, 8, 3), (6, 8, 4), (2, 16, 3), (6, 16, 4)]

    // MARK: Files built here

    /// splitmix64: the same bytes on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Stored bytes, row after row: a gradient with noise, so that every predictor is the nearest
    /// somewhere and sums wrap past 255.
    static func storedRows(width: Int, height: Int, pixelBytes: Int, seed: UInt64) -> [UInt8] {
        var generator = Generator(state: seed)
        var rows = [UInt8](repeating: 0, count: width * height * pixelBytes)
        for y in 0..<height {
            for i in 0..<width * pixelBytes {
                let smooth = (i * 7 + y * 13) & 0xff
                rows[y * width * pixelBytes + i] = generator.below(4) == 0 ? UInt8(generator.below(256)) : UInt8(smooth)
            }
        }
        return rows
    }

    /// The encoder's side of each filter (PNG specification, section 9), written from the text.
    static func filter(_ type: Int, row: ArraySlice<UInt8>, above: ArraySlice<UInt8>, pixelBytes: Int) -> [UInt8] {
        let row = Array(row), above = Array(above)
        return row.indices.map { i in
            let a = i >= pixelBytes ? Int(row[i - pixelBytes]) : 0
            let b = Int(above[i]), c = i >= pixelBytes ? Int(above[i - pixelBytes]) : 0
            let predicted: Int
            switch type {
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = (a + b) / 2
            case 4: predicted = paeth(a, b, c)
            default: predicted = 0
            }
            return UInt8(truncatingIfNeeded: Int(row[i]) - predicted)
        }
    }

    /// The predictor nearest to a + b - c, ties to a, then b (specification, 9.4).
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// A PNG of the stored rows, row y filtered with `filterOfRow(y)`, its zlib stream cut into IDAT
    /// chunks of the given sizes (the last takes the rest), then `tail` (chunks) and IEND.
    static func png(width: Int, height: Int, colorType: UInt8, depth: UInt8, stored: [UInt8],
                    filterOfRow: (Int) -> Int, idatSizes: [Int] = [], tail: [UInt8] = []) -> [UInt8] {
        let rowBytes = stored.count / height
        let pixelBytes = rowBytes / width
        var raw: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<height {
            let row = stored[y * rowBytes..<(y + 1) * rowBytes]
            let above = y == 0 ? zeros[...] : stored[(y - 1) * rowBytes..<y * rowBytes]
            let type = filterOfRow(y)
            raw += [UInt8(type)] + filter(type, row: row, above: above, pixelBytes: pixelBytes)
        }
        var stream = [UInt8](repeating: 0, count: Int(compressBound(UInt(raw.count))))
        var length = UInt(stream.count)
        precondition(compress2(&stream, &length, raw, UInt(raw.count), 6) == Z_OK)
        stream.removeSubrange(Int(length)...)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let size = HostileFixtureTests.bigEndian(UInt32(width)) + HostileFixtureTests.bigEndian(UInt32(height))
        file += HostileFixtureTests.chunk("IHDR", size + [depth, colorType, 0, 0, 0])
        var offset = 0
        for size in idatSizes where offset < stream.count {
            let end = min(stream.count, offset + size)
            file += HostileFixtureTests.chunk("IDAT", Array(stream[offset..<end]))
            offset = end
        }
        if offset < stream.count || idatSizes.isEmpty { file += HostileFixtureTests.chunk("IDAT", Array(stream[offset...])) }
        return file + tail + HostileFixtureTests.chunk("IEND", [])
    }

    // MARK: Outcomes

    enum Outcome: Equatable {
        case pixels(Image)
        case rows([[UInt16]])
        case failed(String)
        /// The rows read before the error, and the error.
        case failedAfter([[UInt16]], String)
    }

    /// The whole image, or the error, as `reader` reads it.
    static func wholeImage(_ bytes: [UInt8], _ reader: PNGDecoder.RowReader) -> Outcome {
        do {
            return .pixels(try PNGDecoder(bytes: bytes, rowReader: reader).decodeRGBA())
        } catch {
            return .failed("\(error)")
        }
    }

    /// Every row read one at a time (RGB rows for opaque images), or the error after the rows
    /// read before it (a partial image keeps them, so the failing row must be libpng's).
    static func rowByRow(_ bytes: [UInt8], _ reader: PNGDecoder.RowReader) -> Outcome {
        var rows: [[UInt16]] = []
        do {
            let decoder = try PNGDecoder(bytes: bytes, rowReader: reader)
            for _ in 0..<decoder.height {
                if decoder.bitDepth == 16 {
                    var row: [UInt16] = []
                    try decoder.readRow(into: &row)
                    rows.append(row)
                } else {
                    var row: [UInt8] = []
                    try decoder.readRow(into: &row)
                    rows.append(row.map(UInt16.init))
                }
            }
            return .rows(rows)
        } catch {
            return .failedAfter(rows, "\(error)")
        }
    }

    // MARK: Tests

    @Test func everyLayoutFilterWidthAndSplitGivesLibpngsPixels() throws {
        let splits: [[Int]] = [[], [1, 1, 5, 8191, 8192], [3, 64, 100]]
        for layout in Self.ownLayouts {
            let pixelBytes = layout.channels * Int(layout.depth) / 8
            for width in [1, 2, 3, 5, 16, 33] {
                let height = 11
                let stored = Self.storedRows(width: width, height: height, pixelBytes: pixelBytes, seed: UInt64(width) * 31 + UInt64(layout.colorType))
                for (index, split) in splits.enumerated() {
                    let file = Self.png(width: width, height: height, colorType: layout.colorType, depth: layout.depth,
                                        stored: stored, filterOfRow: { ($0 + index) % 5 }, idatSizes: split)
                    let decoder = try PNGDecoder(bytes: file)
                    #expect(!decoder.rowsByLibpng, "type \(layout.colorType), depth \(layout.depth)")
                    let own = Self.wholeImage(file, .thumbgen)
                    #expect(own == Self.wholeImage(file, .libpng), "type \(layout.colorType), depth \(layout.depth), width \(width)")
                    #expect(Self.rowByRow(file, .thumbgen) == Self.rowByRow(file, .libpng))
                    if layout.colorType == 6 && layout.depth == 8, case .pixels(let image) = own {
                        #expect(image.rgba8 == stored, "the stored RGBA bytes themselves")
                    }
                }
            }
        }
    }

    @Test func otherLayoutsAreReadByLibpng() throws {
        for name in ["basn3p08", "basn3p04", "basi2c08", "basi6a08", "tbrn2c08", "basn0g16", "basn4a16", "basn0g04"] {
            let decoder = try PNGDecoder(path: Fixtures.path("pngsuite/\(name).png"))
            #expect(decoder.rowsByLibpng, "\(name)")
        }
        for name in ["basn0g08", "basn4a08", "basn2c08", "basn6a08", "basn2c16", "basn6a16", "f04n2c08", "z09n2c08"] {
            let path = Fixtures.path("pngsuite/\(name).png")
            let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
            #expect(try !PNGDecoder(path: path).rowsByLibpng, "\(name)")
            #expect(Self.wholeImage(bytes, .thumbgen) == Self.wholeImage(bytes, .libpng), "\(name)")
        }
    }

    /// Damage of every kind the reader checks, each against libpng reading the same bytes.
    @Test func damagedFilesGiveLibpngsPixelsOrMessage() throws {
        let text = HostileFixtureTests.chunk("tEXt", Array("Comment\u{0}after the image".utf8))
        let bases = [
            Self.png(width: 40, height: 30, colorType: 2, depth: 8,
                     stored: Self.storedRows(width: 40, height: 30, pixelBytes: 3, seed: 1),
                     filterOfRow: { $0 % 5 }, idatSizes: [900, 700], tail: text),
            Self.png(width: 9, height: 13, colorType: 6, depth: 16,
                     stored: Self.storedRows(width: 9, height: 13, pixelBytes: 8, seed: 2),
                     filterOfRow: { 4 - $0 % 5 }, idatSizes: [300]),
            Self.png(width: 17, height: 5, colorType: 4, depth: 8,
                     stored: Self.storedRows(width: 17, height: 5, pixelBytes: 2, seed: 3),
                     filterOfRow: { _ in 4 }, tail: text),
            // Rows of 10 bytes: inflated whole first (small images are), a damaged stream often
            // fails right at a row's end, where zlib decodes on past a full row and libpng's
            // failure row is the one just filled.
            Self.png(width: 3, height: 60, colorType: 2, depth: 8,
                     stored: Self.storedRows(width: 3, height: 60, pixelBytes: 3, seed: 4),
                     filterOfRow: { $0 % 3 }, idatSizes: [100, 50]),
        ]
        var generator = Generator(state: 42)
        var failures = Set<String>()
        for base in bases {
            let chunks = Self.chunkStarts(base)
            for round in 0..<120 {
                let damaged = Self.damage(base, kind: round % 8, chunks: chunks, &generator)
                let whole = Self.wholeImage(damaged, .thumbgen)
                #expect(whole == Self.wholeImage(damaged, .libpng), "kind \(round % 8), round \(round)")
                #expect(Self.rowByRow(damaged, .thumbgen) == Self.rowByRow(damaged, .libpng), "kind \(round % 8), round \(round)")
                if case .failed(let message) = whole { failures.insert(message.components(separatedBy: ": ").dropFirst().joined(separator: ": ")) }
            }
        }
        // The damage reaches the reader's every kind of failure (a message from each check).
        for words in ["CRC error", "Not enough image data", "bad adaptive filter value", "invalid chunk type",
                      "invalid window size (libpng)", "out of range"] {
            #expect(failures.contains { $0.contains(words) }, "no damaged file failed with '\(words)': \(failures.sorted())")
        }
    }

    typealias Chunk = (start: Int, type: String, data: Range<Int>)

    /// Each chunk of an undamaged file: where it starts, its type, where its data lies.
    static func chunkStarts(_ png: [UInt8]) -> [Chunk] {
        PNGEncoderTests.chunks(png).map { ($0.start, $0.type, $0.start + 8..<$0.start + 8 + $0.data.count) }
    }

    /// Rewrites the CRC of the chunk at `start` to match its bytes.
    static func fixCRC(_ png: inout [UInt8], chunk: Chunk) {
        let crc = CRC32.checksum(png[chunk.start + 4..<chunk.data.upperBound])
        png.replaceSubrange(chunk.data.upperBound..<chunk.data.upperBound + 4, with: HostileFixtureTests.bigEndian(crc))
    }

    static func damage(_ base: [UInt8], kind: Int, chunks: [Chunk], _ g: inout Generator) -> [UInt8] {
        var png = base
        let idats = chunks.filter { $0.type == "IDAT" }
        let afterIDAT = chunks.filter { $0.start > idats.last!.start }
        switch kind {
        case 0: // a bit flipped anywhere after IHDR: CRCs, lengths, types, data
            let at = 33 + g.below(png.count - 33)
            png[at] ^= UInt8(1 << g.below(8))
        case 1: // IDAT data changed under a matching CRC: inflate's errors, bad filter bytes, wrong pixels
            let idat = idats[g.below(idats.count)]
            guard !idat.data.isEmpty else { return png }
            for _ in 0..<1 + g.below(3) { png[idat.data.lowerBound + g.below(idat.data.count)] ^= UInt8(1 << g.below(8)) }
            fixCRC(&png, chunk: idat)
        case 2: // cut short
            png.removeSubrange((33 + g.below(png.count - 33))...)
        case 3: // a chunk after the image data with another type: a bad letter, or a critical chunk
            let chunk = afterIDAT[g.below(afterIDAT.count)]
            let choices: [[UInt8]] = [[0x74, 0x45, 0x00, 0x74], Array("IHDR".utf8), Array("ABCD".utf8), Array("abcd".utf8), Array("IDAT".utf8)]
            png.replaceSubrange(chunk.start + 4..<chunk.start + 8, with: choices[g.below(choices.count)])
            if g.below(2) == 0 { fixCRC(&png, chunk: chunk) }
        case 4: // a length over 2^31 - 1, or one that runs past the end
            let chunk = chunks.dropFirst()[g.below(chunks.count - 1) + 1]
            let length: UInt32 = g.below(2) == 0 ? 0x8000_0000 | UInt32(g.below(1000)) : UInt32(g.below(100_000))
            png.replaceSubrange(chunk.start..<chunk.start + 4, with: HostileFixtureTests.bigEndian(length))
        case 5: // the zlib header's window size over 32 KiB (CMF's high nibble), CRC matching
            png[idats[0].data.lowerBound] = UInt8(0x80 + g.below(8) * 16) | (png[idats[0].data.lowerBound] & 0x0f)
            fixCRC(&png, chunk: idats[0])
        case 6: // IDATs after the stream: empty, or with data, before or after another chunk
            let extra = HostileFixtureTests.chunk("IDAT", g.below(2) == 0 ? [] : [1, 2, 3])
            let at = g.below(2) == 0 ? idats.last!.data.upperBound + 4 : afterIDAT.last!.start
            png.insert(contentsOf: extra, at: at)
        default: // the IDAT sequence cut: the last chunk dropped, or IEND gone
            if g.below(2) == 0, idats.count > 1 {
                let last = idats.last!
                png.removeSubrange(last.start..<last.data.upperBound + 4)
            } else {
                png.removeSubrange(chunks.last!.start...)
            }
        }
        return png
    }

    /// The two ways into the row kernel: the one decoding takes (SSE4.1 where the CPU has it) and
    /// the baseline other x86 CPUs take (SSE2).
    static let unfilterPaths: [(name: String, unfilter: @Sendable (Int32, UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, Int, Int) -> Void)] =
        [("fastest", { tk_png_unfilter_row($0, $1, $2, $3, $4) }), ("baseline", { tk_png_unfilter_row_baseline($0, $1, $2, $3, $4) })]

    /// The kernel's Paeth (a rewritten form, see png_unfilter.c) against the specification's for
    /// every left, above and upper-left value: a two-pixel row of 4-byte pixels whose first pixel
    /// decodes to four values of `a`, under the row (c, b), so the second pixel is Paeth(a, b, c).
    @Test(arguments: [0, 1]) func paethMatchesTheSpecificationForEveryTriple(path: Int) {
        let unfilter = Self.unfilterPaths[path].unfilter
        var row = [UInt8](repeating: 0, count: 8), above = [UInt8](repeating: 0, count: 8)
        var wrong = 0
        row.withUnsafeMutableBufferPointer { row in
            above.withUnsafeMutableBufferPointer { above in
                for c in 0..<256 {
                    for b in 0..<256 {
                        for k in 0..<4 { above[k] = UInt8(c); above[4 + k] = UInt8(b) }
                        for a in stride(from: 0, to: 256, by: 4) {
                            for k in 0..<4 {
                                row[k] = UInt8(truncatingIfNeeded: a + k - c) // the first pixel predicts c
                                row[4 + k] = 0
                            }
                            unfilter(4, row.baseAddress, above.baseAddress, 8, 4)
                            for k in 0..<4 {
                                if row[4 + k] != UInt8(Self.paeth(a + k, b, c)) { wrong += 1 }
                            }
                        }
                    }
                }
            }
        }
        #expect(wrong == 0, "\(Self.unfilterPaths[path].name) path")
    }

    /// The row kernels against the specification's arithmetic, for every filter, pixel size and
    /// row length up to 40 pixels (SSE4.1 and SSE2 paths and their byte-wise ends).
    @Test(arguments: [0, 1]) func unfilterKernelMatchesTheSpecification(path: Int) {
        let (name, unfilter) = Self.unfilterPaths[path]
        var generator = Generator(state: 7)
        for pixelBytes in 1...8 {
            for pixels in 0...40 {
                let length = pixels * pixelBytes
                let stored = (0..<2 * length).map { _ in UInt8(generator.below(256)) }
                let above = Array(stored[..<length]), row = Array(stored[length...])
                for type in 0...4 {
                    var data = Self.filter(type, row: row[...], above: above[...], pixelBytes: pixelBytes)
                    data.withUnsafeMutableBufferPointer { data in
                        above.withUnsafeBufferPointer { above in
                            unfilter(Int32(type), data.baseAddress, above.baseAddress, length, pixelBytes)
                        }
                    }
                    #expect(data == row, "\(name) path, filter \(type), \(pixelBytes) bytes a pixel, \(pixels) pixels")
                }
            }
        }
    }
}
