import Testing
@testable import ThumbKit

/// Escaping is what makes names printable on one line and storable in JSON; `unescape` must give
/// back exactly the bytes, or the manifest would point at files that do not exist.
@Suite struct PathEscapingTests {
    static let names: [[UInt8]] = [
        Array("plain/é-名.png".utf8), Array("a\nb\r\tc".utf8), Array("back\\slash\\x41".utf8), [0x1B] + Array("[31m".utf8),
        [0x61, 0xFF, 0x62], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xC2, 0x85], [0x7F], Array(0x01...0xFF), [],
    ]

    @Test(arguments: names)
    func unescapeGivesBackTheBytes(_ bytes: [UInt8]) {
        let escaped = PathEscaping.escape(bytes: bytes)
        #expect(PathEscaping.unescape(escaped) == bytes)
        #expect(!escaped.contains("\n") && !escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }

    @Test func escapingKeepsNamesDistinct() {
        let escaped = Self.names.map { PathEscaping.escape(bytes: $0) }
        #expect(Set(escaped).count == Self.names.count)
        // A literal backslash-x in a name is not confused with an escaped byte.
        #expect(PathEscaping.escape(bytes: Array("\\xFF".utf8)) != PathEscaping.escape(bytes: [0xFF]))
    }

    @Test(arguments: ["a\\", "a\\q", "\\x4", "\\xZZ", "\\u0041"])
    func textEscapeCannotMakeIsRefused(_ text: String) {
        #expect(PathEscaping.unescape(text) == nil)
    }

    @Test func singleLineEscapesOnlyControlCharacters() {
        #expect(PathEscaping.singleLine("bad crc in \"IDAT\"") == "bad crc in \"IDAT\"")
        #expect(PathEscaping.singleLine("two\nlines\u{1B}[0m a\\b") == "two\\nlines\\x1B[0m a\\b")
        #expect(PathEscaping.singleLine("nel\u{85}") == "nel\\xC2\\x85")
    }

    @Test func filePathsKeepTheirBytes() {
        let path = FilePath(Array("dir/sub/".utf8) + [0xFF] + Array(".png".utf8))
        #expect(path.string == nil)
        #expect(path.description == "dir/sub/\\xFF.png")
        #expect(path.directory == "dir/sub" && path.lastComponent == FilePath([0xFF] + Array(".png".utf8)))
        #expect(FilePath("a").directory.isEmpty && FilePath("/a").directory == "/")
        #expect(FilePath("out").appending("x.png") == "out/x.png" && FilePath("out/").appending("x.png") == "out/x.png")
        #expect(FilePath("").appending("x.png") == "x.png")
        #expect(FilePath("a.png") < FilePath("b.png") && FilePath([0x7A]) < FilePath([0xC3, 0xA9]))
    }
}
