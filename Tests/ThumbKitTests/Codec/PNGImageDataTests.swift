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
                    filterOfRow: (Int) -> Int, idatSizes: [Int] = [], beforeImageData: [UInt8] = [], tail: [UInt8] = []) -> [UInt8] {
        let rowBytes = stored.count / height
        // Filters look one byte back below 8 bits a pixel (palette indexes).
        let pixelBytes = max(1, rowBytes / width)
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
        file += HostileFixtureTests.chunk("IHDR", size + [depth, colorType, 0, 0, 0]) + beforeImageData
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
                    _ = try decoder.decodeRGBA()
                    #expect(decoder.inflatedByLibdeflate, "a small image's stream, read exactly: libdeflate inflates it")
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

    /// Palette images at every depth, with and without tRNS, with indexes past PLTE's entries
    /// (libpng expands those to black) and past tRNS's (opaque).
    static let paletteLayouts: [(depth: UInt8, entries: Int, alphas: Int)] =
        [(8, 256, 0), (8, 200, 77), (8, 7, 3), (4, 16, 3), (4, 5, 0), (2, 4, 4), (1, 2, 1), (1, 1, 0)]

    /// PLTE with `entries` colours, then tRNS with `alphas` alpha values when there are any.
    static func paletteChunks(entries: Int, alphas: Int, seed: UInt64) -> [UInt8] {
        var generator = Generator(state: seed)
        let colours = (0..<entries * 3).map { _ in UInt8(generator.below(256)) }
        let alpha = (0..<alphas).map { _ in UInt8(generator.below(256)) }
        return HostileFixtureTests.chunk("PLTE", colours) + (alphas > 0 ? HostileFixtureTests.chunk("tRNS", alpha) : [])
    }

    @Test func everyPaletteDepthWidthAndSplitGivesLibpngsPixels() throws {
        let splits: [[Int]] = [[], [1, 1, 5, 8191, 8192], [3, 64, 100]]
        for layout in Self.paletteLayouts {
            for width in [1, 2, 3, 5, 16, 33] {
                let height = 11
                let rowBytes = (width * Int(layout.depth) + 7) / 8
                let seed = UInt64(width) * 31 + UInt64(layout.depth) * 7 + UInt64(layout.entries)
                let stored = Self.storedRows(width: rowBytes, height: height, pixelBytes: 1, seed: seed)
                let palette = Self.paletteChunks(entries: layout.entries, alphas: layout.alphas, seed: seed)
                for (index, split) in splits.enumerated() {
                    let file = Self.png(width: width, height: height, colorType: 3, depth: layout.depth, stored: stored,
                                        filterOfRow: { ($0 + index) % 5 }, idatSizes: split, beforeImageData: palette)
                    let label = "depth \(layout.depth), \(layout.entries) entries, \(layout.alphas) alphas, width \(width)"
                    let decoder = try PNGDecoder(bytes: file)
                    #expect(!decoder.rowsByLibpng, "\(label)")
                    _ = try decoder.decodeRGBA()
                    #expect(decoder.inflatedByLibdeflate, "\(label)")
                    let own = Self.wholeImage(file, .thumbgen)
                    if case .failed(let message) = own { Issue.record("\(label): \(message)") }
                    #expect(own == Self.wholeImage(file, .libpng), "\(label)")
                    #expect(Self.rowByRow(file, .thumbgen) == Self.rowByRow(file, .libpng), "\(label)")
                }
            }
        }
    }

    @Test func otherLayoutsAreReadByLibpng() throws {
        for name in ["basi3p08", "basi2c08", "basi6a08", "tbrn2c08", "basn0g16", "basn4a16", "basn0g04"] {
            let decoder = try PNGDecoder(path: Fixtures.path("pngsuite/\(name).png"))
            #expect(decoder.rowsByLibpng, "\(name)")
        }
        for name in ["basn0g08", "basn4a08", "basn2c08", "basn6a08", "basn2c16", "basn6a16", "f04n2c08", "z09n2c08",
                     "basn3p08", "basn3p04", "basn3p02", "basn3p01", "tbbn3p08", "tp1n3p08", "s39n3p04"] {
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
            // Palette indexes, 4 bits each (with tRNS), and a whole byte each.
            Self.png(width: 23, height: 19, colorType: 3, depth: 4,
                     stored: Self.storedRows(width: 12, height: 19, pixelBytes: 1, seed: 5),
                     filterOfRow: { $0 % 5 }, idatSizes: [120], beforeImageData: Self.paletteChunks(entries: 16, alphas: 9, seed: 5), tail: text),
            Self.png(width: 30, height: 20, colorType: 3, depth: 8,
                     stored: Self.storedRows(width: 30, height: 20, pixelBytes: 1, seed: 6),
                     filterOfRow: { 4 - $0 % 5 }, beforeImageData: Self.paletteChunks(entries: 256, alphas: 0, seed: 6)),
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

    /// `file` (with one IDAT) with that chunk's data changed by `change`, its length and CRC to match.
    static func rewritingImageData(_ file: [UInt8], _ change: (inout [UInt8]) -> Void) -> [UInt8] {
        let idat = chunkStarts(file).first { $0.type == "IDAT" }!
        var data = Array(file[idat.data])
        change(&data)
        return Array(file[..<idat.start]) + HostileFixtureTests.chunk("IDAT", data) + Array(file[(idat.data.upperBound + 4)...])
    }

    /// Streams libdeflate must not take, each read by zlib as libpng reads it: the same pixels, or
    /// the same failure. Rows of 301 bytes, so the stream's matches reach back past 256 bytes.
    @Test func streamsLibdeflateMustNotTakeAreReadAsLibpngReadsThem() throws {
        let stored = Self.storedRows(width: 100, height: 12, pixelBytes: 3, seed: 9)
        let base = Self.png(width: 100, height: 12, colorType: 2, depth: 8, stored: stored, filterOfRow: { $0 % 5 })
        let undamaged = try PNGDecoder(bytes: base)
        _ = try undamaged.decodeRGBA()
        #expect(undamaged.inflatedByLibdeflate)
        // The same stream in two IDATs, the first 500 bytes long.
        let split = Self.png(width: 100, height: 12, colorType: 2, depth: 8, stored: stored, filterOfRow: { $0 % 5 }, idatSizes: [500])
        let idats = Self.chunkStarts(split).filter { $0.type == "IDAT" }
        // (name, the file, what libpng makes of it: the rows it gives, or words of its failure)
        let cases: [(String, [UInt8], String)] = [
            // libpng does not check the Adler-32 (PNG_IGNORE_ADLER32), libdeflate does.
            ("a wrong Adler-32", Self.rewritingImageData(base) { $0[$0.count - 1] ^= 0x55 }, "12 rows"),
            // zlib ignores what follows the stream's end; libdeflate's reading must end at it.
            ("bytes after the stream", Self.rewritingImageData(base) { $0 += [1, 2, 3] }, "12 rows"),
            // A stored CRC that does not match, on the first or the last IDAT of the run: the
            // stream itself is whole.
            ("the first IDAT's CRC wrong", {
                var file = split
                file[idats[0].data.upperBound + 1] ^= 0x10
                return file
            }(), "IDAT: CRC error"),
            ("the last IDAT's CRC wrong", {
                var file = split
                file[idats[1].data.upperBound + 3] ^= 0x01
                return file
            }(), "IDAT: CRC error"),
            // zlib holds the stream to the 256-byte window its header declares; libdeflate
            // would allow 32 KiB.
            ("a 256-byte window", Self.rewritingImageData(base) { data in
                data[0] = 0x08
                data[1] &= 0xE0
                data[1] |= UInt8((31 - (UInt(data[0]) << 8 | UInt(data[1])) % 31) % 31)
            }, "too far back"),
            // A row more in the stream than the header has (its height cut to 11).
            ("a row too many", {
                var file = base
                file[23] = 11
                Self.fixCRC(&file, chunk: Self.chunkStarts(base)[0])
                return file
            }(), "11 rows"),
        ]
        #expect(idats.count == 2)
        for (name, file, libpngMakes) in cases {
            let own = Self.wholeImage(file, .thumbgen)
            #expect(own == Self.wholeImage(file, .libpng), "\(name)")
            #expect(Self.rowByRow(file, .thumbgen) == Self.rowByRow(file, .libpng), "\(name)")
            let decoder = try PNGDecoder(bytes: file)
            _ = try? decoder.decodeRGBA()
            #expect(!decoder.inflatedByLibdeflate, "\(name)")
            // What each file is, checked on the outcome both readers share.
            let outcome: String
            switch own {
            case .pixels(let image) where image.rgba8 == Self.opaque(stored): outcome = "12 rows"
            case .pixels(let image) where image.rgba8 == Self.opaque(Array(stored[..<(11 * 300)])): outcome = "11 rows"
            case .failed(let message): outcome = message
            default: outcome = "other pixels"
            }
            #expect(outcome.contains(libpngMakes), "\(name): \(outcome)")
        }
    }

    /// RGB samples with an opaque alpha after each pixel.
    static func opaque(_ rgb: [UInt8]) -> [UInt8] {
        var rgba: [UInt8] = []
        for i in stride(from: 0, to: rgb.count, by: 3) {
            rgba += rgb[i..<i + 3]
            rgba.append(255)
        }
        return rgba
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
