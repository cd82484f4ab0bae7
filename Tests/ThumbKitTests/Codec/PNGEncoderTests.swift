import CPNGSystem
import CThumbKernels
import Foundation
import Testing
@testable import ThumbKit
import TestSupport

@Suite struct PNGEncoderTests {
    /// An image whose pixels come from `pixel(x, y)`.
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) -> Image {
        var samples = [UInt8]()
        for y in 0..<height { for x in 0..<width { samples += pixel(x, y) } }
        return Image(width: width, height: height, rgba8: samples)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let image: Image
        let colorType: PNGColorType
        let bitDepth: Int
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "gray 1-bit", image: image(17, 5) { x, y in let v: UInt8 = (x + y) % 2 == 0 ? 0 : 255; return [v, v, v, 255] },
             colorType: .gray, bitDepth: 1),
        Case(label: "gray 2-bit", image: image(9, 9) { x, _ in let v = UInt8(x % 4 * 85); return [v, v, v, 255] },
             colorType: .gray, bitDepth: 2),
        Case(label: "gray 4-bit", image: image(16, 3) { x, _ in let v = UInt8(x * 17); return [v, v, v, 255] },
             colorType: .gray, bitDepth: 4),
        Case(label: "gray 8-bit", image: image(256, 2) { x, _ in let v = UInt8(x); return [v, v, v, 255] },
             colorType: .gray, bitDepth: 8),
        Case(label: "palette 1-bit", image: image(7, 7) { x, _ in x < 3 ? [255, 0, 0, 255] : [0, 0, 255, 255] },
             colorType: .palette, bitDepth: 1),
        Case(label: "palette 2-bit with alpha", image: image(5, 5) { x, y in [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 0, 0]][(x + y) % 3] },
             colorType: .palette, bitDepth: 2),
        Case(label: "palette 4-bit", image: image(16, 4) { x, y in [UInt8(x % 4 * 16), UInt8(y * 60), 7, 255] },
             colorType: .palette, bitDepth: 4),
        Case(label: "palette 8-bit with alpha", image: image(16, 16) { x, y in [UInt8(x * 16), UInt8(y * 16), 9, UInt8(x * 8 + y)] },
             colorType: .palette, bitDepth: 8),
        Case(label: "gray+alpha", image: image(20, 20) { x, y in let v = UInt8(x * 12 + y); return [v, v, v, UInt8(y * 12)] },
             colorType: .grayAlpha, bitDepth: 8),
        Case(label: "rgb", image: image(20, 20) { x, y in [UInt8(x * 12), UInt8(y * 12), UInt8(x * y % 256), 255] },
             colorType: .rgb, bitDepth: 8),
        Case(label: "rgba", image: image(20, 20) { x, y in [UInt8(x * 12), UInt8(y * 12), UInt8(x * y % 256), UInt8((x + y) * 6)] },
             colorType: .rgba, bitDepth: 8),
    ]

    /// A level libdeflate does not take is an error from `encode`, not a trap in `init`.
    @Test(arguments: [-1, 13, Int.max])
    func compressionLevelsOutsideLibdeflatesThrow(level: Int) {
        #expect(throws: EncodeError.failed(.png, reason: "compression level \(level) is not 0…12")) {
            try PNGEncoder(compressionLevel: level).encode(TestPatterns.noise(3, 3, seed: 1))
        }
    }

    @Test(arguments: cases)
    func picksTheSmallestLosslessLayoutAndRoundTrips(_ testCase: Case) throws {
        let bytes = try PNGEncoder().encode(testCase.image)
        let decoder = try PNGDecoder(bytes: bytes)
        #expect(decoder.header.details == .png(colorType: testCase.colorType))
        #expect(decoder.header.bitDepth == testCase.bitDepth)
        #expect(try decoder.decodeRGBA() == testCase.image)
        let forced = try PNGEncoder(colorType: .rgba).encode(testCase.image)
        let forcedDecoder = try PNGDecoder(bytes: forced)
        #expect(forcedDecoder.header.details == .png(colorType: .rgba) && forcedDecoder.header.bitDepth == 8)
        #expect(try forcedDecoder.decodeRGBA() == testCase.image)
    }

    @Test(arguments: Fixtures.validPngSuiteNames)
    func pngSuiteRoundTripsAt8Bits(name: String) throws {
        let source = try PNGDecoder.decode(path: Fixtures.path("pngsuite/" + name)).converted8()
        for encoder in [PNGEncoder(), PNGEncoder(colorType: .rgba)] {
            let first = try encoder.encode(source)
            #expect(try PNGDecoder.decode(bytes: first) == source)
            #expect(try encoder.encode(source) == first, "same pixels, same bytes")
        }
    }

    @Test func sixteenBitSourcesRoundToEightBits() throws {
        let image = Image(width: 4, height: 1, rgba16: [0, 128, 129, 65535, 257, 32767, 32768, 65535,
                                                        65535, 65534, 65278, 65535, 383, 384, 385, 65535])
        let decoded = try PNGDecoder.decode(bytes: PNGEncoder().encode(image))
        let expected = image.rgba8
        #expect(decoded.rgba8 == expected)
        #expect(expected == [0, 0, 1, 255, 1, 127, 128, 255, 255, 255, 254, 255, 1, 1, 1, 255])
    }

    @Test func writesNoTimeOrTextChunks() throws {
        let bytes = try PNGEncoder().encode(Self.cases[9].image)
        var chunks = [String]()
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            chunks.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        #expect(chunks == ["IHDR", "IDAT", "IEND"])
        #expect(offset == bytes.count)
    }

    @Test func sRGBChunkWhenAsked() throws {
        let bytes = try PNGEncoder(marksSRGB: true).encode(Self.cases[9].image)
        #expect(String(decoding: bytes[37..<41], as: UTF8.self) == "sRGB")
    }

    // MARK: - Chunks, filters and compression

    /// Each chunk's offset, type and data, checking every length and CRC on the way.
    static func chunks(_ png: [UInt8]) -> [(start: Int, type: String, data: [UInt8])] {
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var chunks: [(start: Int, type: String, data: [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let typeAndData = Array(png[offset + 4..<offset + 8 + length])
            let crc = png[offset + 8 + length..<offset + 12 + length].reduce(0) { $0 << 8 | UInt($1) }
            #expect(UInt(crc32(0, typeAndData, UInt32(typeAndData.count))) == crc, "CRC of chunk at \(offset)")
            chunks.append((offset, String(decoding: typeAndData.prefix(4), as: UTF8.self), Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
        #expect(offset == png.count)
        return chunks
    }

    /// The chunk types in file order (lengths and CRCs checked as `chunks` does).
    static func chunkTypes(_ png: [UInt8]) -> [String] { chunks(png).map(\.type) }

    /// The image data inflated with zlib: each row's filter type byte, then the filtered row.
    static func scanlines(_ png: [UInt8], size: Int) -> [UInt8] {
        let stream = chunks(png).filter { $0.type == "IDAT" }.flatMap(\.data)
        var inflated = [UInt8](repeating: 0, count: size)
        var length = UInt(size)
        #expect(uncompress(&inflated, &length, stream, UInt(stream.count)) == Z_OK)
        #expect(Int(length) == size)
        return inflated
    }

    /// The five PNG filters of `row` given the row above, written independently of the encoder's
    /// C loop (PNG specification, section 9).
    static func filterings(_ row: [UInt8], above: [UInt8], pixelBytes: Int) -> [[UInt8]] {
        (0..<5).map { type in
            row.indices.map { i in
                let x = Int(row[i]), b = Int(above[i])
                let a = i >= pixelBytes ? Int(row[i - pixelBytes]) : 0
                let c = i >= pixelBytes ? Int(above[i - pixelBytes]) : 0
                let predictor: Int
                switch type {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                default:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                }
                return UInt8((x - predictor) & 0xFF)
            }
        }
    }

    /// Every row of an 8-bit image takes the filter whose bytes, read as signed, have the smallest
    /// sum of magnitudes (the first on a tie), and holds exactly that filter's bytes. The image
    /// mixes rows where each filter wins.
    @Test(arguments: [(PNGColorType.rgba, 4), (.rgb, 3), (.grayAlpha, 2)])
    func eachRowTakesTheFilterWithTheSmallestSumOfMagnitudes(_ colorType: PNGColorType, channels: Int) throws {
        let width = 37, height = 40
        var samples: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<channels {
                    let value: Int
                    switch (y / 4) % 5 {
                    case 0: value = (x &* 7919 ^ y &* 104_729 ^ channel &* 31) % 251  // noise: None
                    case 1: value = x * 6 + channel * 9                                // ramps along x: Sub
                    case 2: value = y * 5 + channel * 40                               // one value a row: Up
                    default: value = x * 3 + y * 5 + channel * 70                      // planes: Average, Paeth
                    }
                    samples.append(UInt8(value % 256))
                }
            }
        }
        let layout = PNGLayout(colorType: colorType, bitDepth: 8, samples: samples, samplesPerPixel: channels,
                               palette: [], transparency: [])
        let image = (width: width, height: height)
        let rowBytes = image.width * layout.samplesPerPixel
        let inflated = Self.scanlines(try PNGEncoder().encode(layout, width: image.width, height: image.height),
                                      size: image.height * (rowBytes + 1))
        var above = [UInt8](repeating: 0, count: rowBytes)
        var chosen = Set<UInt8>()
        for y in 0..<image.height {
            let row = Array(layout.samples[y * rowBytes..<(y + 1) * rowBytes])
            let candidates = Self.filterings(row, above: above, pixelBytes: layout.samplesPerPixel)
            let sums = candidates.map { $0.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) } }
            let expected = sums.firstIndex(of: sums.min()!)!
            let line = inflated[y * (rowBytes + 1)..<(y + 1) * (rowBytes + 1)]
            #expect(Int(line.first!) == expected, "row \(y): sums \(sums)")
            #expect(Array(line.dropFirst()) == candidates[expected], "row \(y)")
            chosen.insert(line.first!)
            above = row
        }
        #expect(chosen.count >= 3, "the image exercises several filters: \(chosen.sorted())")
    }

    /// The filter kernel's two paths (AVX2 where the CPU has it, and the scalar loops every CPU
    /// has) against the specification's heuristic, row by row: 20,000 images of 1-4 rows of 1-300
    /// bytes and pixels of 1-8 bytes, made of noise, of three values or two (where sums come close
    /// and tie, and the first filter must win), or of a noisy ramp.
    @Test(arguments: ["fastest", "baseline"]) func filterKernelPathsFollowTheHeuristic(path: String) {
        var generator = PNGImageDataTests.Generator(state: 31)
        var wrong: [String] = []
        for _ in 0..<20_000 {
            let pixelBytes = [1, 2, 3, 4, 6, 8][generator.below(6)]
            let rowBytes = 1 + generator.below(300), height = 1 + generator.below(4)
            let kind = generator.below(4)
            let rows: [UInt8] = (0..<rowBytes * height).map { i in
                switch kind {
                case 0: UInt8(generator.below(256))
                case 1: UInt8(generator.below(3) * 127)
                case 2: UInt8(truncatingIfNeeded: i * 3 + generator.below(2))
                default: generator.below(2) == 0 ? 0x80 : 0x7f
                }
            }
            var out = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
            let done = rows.withUnsafeBufferPointer { rows in
                out.withUnsafeMutableBufferPointer { out in
                    path == "fastest" ? tk_png_filter_rows(rows.baseAddress, rowBytes, height, pixelBytes, 1, out.baseAddress)
                        : tk_png_filter_rows_baseline(rows.baseAddress, rowBytes, height, pixelBytes, 1, out.baseAddress)
                }
            }
            #expect(done == 1)
            var above = [UInt8](repeating: 0, count: rowBytes)
            for y in 0..<height {
                let row = Array(rows[y * rowBytes..<(y + 1) * rowBytes])
                let candidates = Self.filterings(row, above: above, pixelBytes: pixelBytes)
                let sums = candidates.map { $0.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) } }
                let expected = sums.firstIndex(of: sums.min()!)!
                let line = Array(out[y * (rowBytes + 1)..<(y + 1) * (rowBytes + 1)])
                if Int(line[0]) != expected || Array(line.dropFirst()) != candidates[expected] {
                    wrong.append("\(rowBytes)-byte rows of \(pixelBytes)-byte pixels, row \(y): filter \(line[0]), sums \(sums)")
                }
                above = row
            }
        }
        #expect(wrong.isEmpty, "\(path) path: \(wrong.count) rows, first \(wrong.prefix(3))")
    }

    /// Palette indexes and packed gray are written unfiltered, packed high bits first.
    @Test func paletteAndPackedGrayRowsAreUnfiltered() throws {
        for testCase in Self.cases where testCase.colorType == .palette || testCase.bitDepth < 8 {
            let image = testCase.image
            let layout = PNGLayout.smallest(for: image)
            let rowBytes = (image.width * layout.bitDepth * layout.samplesPerPixel + 7) / 8
            let inflated = Self.scanlines(try PNGEncoder().encode(image), size: image.height * (rowBytes + 1))
            for y in 0..<image.height {
                let line = Array(inflated[y * (rowBytes + 1)..<(y + 1) * (rowBytes + 1)])
                #expect(line[0] == 0, "\(testCase.label) row \(y)")
                // The first sample sits in the high bits of the first byte.
                let first = layout.samples[y * image.width * layout.samplesPerPixel]
                #expect(line[1] >> (8 - layout.bitDepth) == first, "\(testCase.label) row \(y)")
            }
        }
    }

    /// Level 0 stores the rows uncompressed, 12 compresses hardest; both decode to the image.
    @Test func everyLevelRoundTrips() throws {
        let image = Self.cases[9].image
        var sizes: [Int] = []
        for level in PNGEncoder.compressionLevels {
            let bytes = try PNGEncoder(colorType: .rgba, compressionLevel: level).encode(image)
            #expect(try PNGDecoder.decode(bytes: bytes) == image, "level \(level)")
            sizes.append(bytes.count)
        }
        #expect(sizes[0] > image.width * image.height * 4, "level 0 stores: \(sizes)")
        #expect(sizes[12] < sizes[0] / 2, "\(sizes)")
    }

    /// Chunks come in the order the specification requires, the image data in one IDAT, and the
    /// file passes pngcheck (when installed).
    @Test func chunkOrderAndPngcheck() throws {
        let translucentPalette = Self.image(10, 10) { x, y in [UInt8(x * 20), 0, UInt8(y * 20), x == 0 ? 128 : 255] }
        var encoder = PNGEncoder(marksSRGB: true)
        let bytes = try encoder.encode(translucentPalette)
        #expect(Self.chunkTypes(bytes) == ["IHDR", "sRGB", "PLTE", "tRNS", "IDAT", "IEND"])
        encoder.iccProfile = try JPEGFixtures.displayP3Profile()
        let labelled = try encoder.encode(Self.cases[9].image)
        #expect(Self.chunkTypes(labelled) == ["IHDR", "iCCP", "IDAT", "IEND"])
        let pngcheck = "/usr/bin/pngcheck"
        guard FileManager.default.isExecutableFile(atPath: pngcheck) else { return }
        for (name, png) in [("palette", bytes), ("labelled", labelled)] {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("pngcheck-\(getpid())-\(name).png").path
            try Data(png).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let report = String(decoding: try RAWDecoderTests.bytes(ofTool: pngcheck, [path]), as: UTF8.self)
            #expect(report.hasPrefix("OK: "), "\(name): \(report)")
        }
    }

    /// A profile is written only where it can label the image: an RGB profile on a gray image,
    /// and a profile whose header disagrees with its length, are left out.
    @Test func profilesThatDoNotFitAreLeftOut() throws {
        let p3 = try JPEGFixtures.displayP3Profile()
        let gray = Self.cases[3].image
        var encoder = PNGEncoder()
        encoder.iccProfile = p3
        #expect(!Self.chunks(try encoder.encode(gray)).contains { $0.type == "iCCP" })
        let colour = Self.cases[9].image
        let written = Self.chunks(try encoder.encode(colour)).first { $0.type == "iCCP" }
        #expect(written.map { Array($0.data.prefix(5)) } == Array("icc".utf8) + [0, 0])
        #expect(try PNGDecoder(bytes: encoder.encode(colour)).header.colorSource == .iccProfile(p3))
        encoder.iccProfile = p3 + [0, 0, 0, 0]
        #expect(!Self.chunks(try encoder.encode(colour)).contains { $0.type == "iCCP" })
    }
}
