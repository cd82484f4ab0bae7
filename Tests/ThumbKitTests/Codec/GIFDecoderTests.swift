import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// GIF through the front door: the header, the first-frame rules, and hostile files (its pixels
/// against Pillow's, and damaged copies, in `FormatConformanceTests`).
@Suite struct GIFDecoderTests {
    static let names = ["opaque", "interlaced", "transparent", "animated"]

    static func bytes(_ name: String) -> [UInt8] { Fixtures.bytes("gif/" + name) }

    @Test func headersSayWhatTheFilesAre() throws {
        func header(_ name: String) throws -> ImageHeader { try ImageSource.bytes(Self.bytes(name + ".gif")).header() }
        #expect(try header("opaque").description == "80x120, gif palette, 8-bit, not interlaced, opaque")
        #expect(try header("interlaced").scanOrder == .interlaced)
        #expect(try header("transparent").hasAlpha)
        #expect(try ImageSource.bytes(Self.bytes("opaque.gif")).format() == .gif)
        let transparent = try ImageSource.bytes(Self.bytes("transparent.gif")).decodeAsStored()
        #expect(Array(transparent.rgba8.prefix(4)) == [0, 0, 0, 0])   // the photo's transparent corner
    }

    /// The opaque fixture with its logical screen enlarged to 100x150 and its image moved to
    /// (10, 20): the first frame is placed there and the rest of the screen is transparent, as
    /// browsers show it; an image reaching past the screen is clipped.
    @Test func aFrameSmallerThanTheScreenLeavesItTransparent() throws {
        var gif = Self.bytes("opaque.gif")
        gif.replaceSubrange(6..<10, with: [100, 0, 150, 0])
        let descriptor = try #require(Self.imageDescriptor(in: gif))
        gif.replaceSubrange(descriptor + 1..<descriptor + 5, with: [10, 0, 20, 0])
        let placed = try ImageSource.bytes(gif).decodeAsStored()
        let original = try ImageSource.bytes(Self.bytes("opaque.gif")).decodeAsStored()
        #expect(placed.width == 100 && placed.height == 150)
        for (x, y) in [(0, 0), (9, 20), (10, 19), (90, 140), (99, 149)] {
            #expect(Array(placed.rgba8[(y * 100 + x) * 4..<(y * 100 + x) * 4 + 4]) == [0, 0, 0, 0], "(\(x), \(y))")
        }
        for (x, y) in [(0, 0), (79, 119), (40, 60)] {
            let p = ((y + 20) * 100 + x + 10) * 4, q = (y * 80 + x) * 4
            #expect(placed.rgba8[p..<p + 4] == original.rgba8[q..<q + 4])
        }
        // Moved to (60, 100) on the 100x150 screen: only 40x50 of it shows.
        gif.replaceSubrange(descriptor + 1..<descriptor + 5, with: [60, 0, 100, 0])
        let clipped = try ImageSource.bytes(gif).decodeAsStored()
        let q = (49 * 80 + 39) * 4
        #expect(clipped.rgba8[(149 * 100 + 99) * 4..<(149 * 100 + 99) * 4 + 4] == original.rgba8[q..<q + 4])
    }

    /// The first image descriptor (0x2C) after the header and the global colour table.
    static func imageDescriptor(in gif: [UInt8]) -> Int? {
        let table = gif[10] & 0x80 != 0 ? 3 << (Int(gif[10] & 7) + 1) : 0
        var i = 13 + table
        while i < gif.count {
            switch gif[i] {
            case 0x2C: return i
            case 0x21:   // an extension: label, then sub-blocks until a zero length
                i += 2
                while i < gif.count && gif[i] != 0 { i += Int(gif[i]) + 1 }
                i += 1
            default: return nil
            }
        }
        return nil
    }

    @Test func lyingAndMissingPartsAreRefused() throws {
        var huge = Self.bytes("opaque.gif")
        huge.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])   // 65535x65535 screen
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .pixels, width: 65535, height: 65535,
                                                                 actual: 65535 * 65535, allowed: 250_000_000))) {
            _ = try ImageSource.bytes(huge).header()
        }
        var empty = Self.bytes("opaque.gif")
        empty.replaceSubrange(6..<10, with: [0, 0, 10, 0])
        #expect(throws: DecodeError.corrupt(.gif, reason: "invalid screen size")) { _ = try ImageSource.bytes(empty).header() }
        let trailerOnly = Array(Self.bytes("opaque.gif").prefix(13)) + [0x3B]   // header, no colour table, no image
        #expect(throws: DecodeError.self) { _ = try ImageSource.bytes(trailerOnly).header() }
    }
}
