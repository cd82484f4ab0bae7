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

    /// A bad zlib level is an error from `encode`, not a trap in `init`.
    @Test(arguments: [-1, 10, Int.max])
    func compressionLevelsOutsideZlibsThrow(level: Int) {
        #expect(throws: EncodeError.failed(.png, reason: "compression level \(level) is not 0…9")) {
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
}
