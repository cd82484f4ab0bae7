import Testing
@testable import ThumbKit

@Suite struct BatchFormattingTests {
    @Test(arguments: [
        (Array("plain/é-名.png".utf8), "plain/é-名.png"),
        (Array("photos/2024/IMG_0001 (copy).png".utf8), "photos/2024/IMG_0001 (copy).png"),
        (Array(" !\"#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~".utf8), " !\"#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~"),
        (Array("a\nb".utf8), "a\\nb"),
        (Array("tab\there\r".utf8), "tab\\there\\r"),
        (Array("back\\slash".utf8), "back\\\\slash"),
        ([0x1B] + Array("[31mred".utf8), "\\x1B[31mred"),
        ([0x61, 0xFF, 0x62], "a\\xFFb"),
        ([0xC3], "\\xC3"),                     // truncated sequence
        ([0xC0, 0xAF], "\\xC0\\xAF"),          // overlong '/'
        ([0xED, 0xA0, 0x80], "\\xED\\xA0\\x80"),  // surrogate
        ([0xC2, 0x85], "\\xC2\\x85"),          // C1 control NEL
        ([0x7F], "\\x7F"),
    ] as [([UInt8], String)])
    func escapesPaths(_ bytes: [UInt8], _ expected: String) {
        #expect(PathEscaping.escape(bytes: bytes) == expected)
        #expect(!PathEscaping.escape(bytes: bytes).contains("\n"))
    }

    @Test func validStringsAreUTF8Only() {
        #expect(PathEscaping.validString(Array("a/b c.png".utf8)) == "a/b c.png")
        #expect(PathEscaping.validString(Array("é/名.png".utf8)) == "é/名.png")
        #expect(PathEscaping.validString([0x61, 0xFF]) == nil && PathEscaping.validString([0xC0, 0xAF]) == nil)
    }

    @Test func messageLinesEscapeControlCharacters() {
        let message = BatchMessage(path: PathEscaping.escape("evil\nname.png"), reason: "corrupt PNG: bad crc")
        #expect(message.line == "evil\\nname.png: corrupt PNG: bad crc")
        let summary = BatchSummary(written: 1, failed: [message], elapsedSeconds: 0.5)
        #expect(summary.formatted() == "evil\\nname.png: corrupt PNG: bad crc\n1 written, 0 up to date, 0 skipped, 1 failed in 0.50 s\n")
        #expect(summary.exitStatus == 1)
        #expect(BatchSummary(written: 3).exitStatus == 0)
        #expect(BatchSummary.seconds(0.047) == "0.05 s" && BatchSummary.seconds(12.3) == "12.30 s" && BatchSummary.seconds(75.4) == "75 s")
    }

    @Test func jsonIsSortedStableAndRoundTrips() throws {
        let value = JSONValue.object([
            "zeta": .integer(-5), "alpha": .array([.string("q\"\\\n\t\u{01}é😀"), .bool(true), .null, .array([]), .object([:])]),
            "Beta": .integer(Int64.max), "plain": .array([.string("a/é 😀.png"), .string("del\u{7F}")]),
        ])
        let text = JSONWriter.string(value)
        #expect(text == """
        {
          "Beta": 9223372036854775807,
          "alpha": [
            "q\\"\\\\\\n\\t\\u0001é😀",
            true,
            null,
            [],
            {}
          ],
          "plain": [
            "a/é 😀.png",
            "del\\u007f"
          ],
          "zeta": -5
        }

        """)
        #expect(try JSONParser.parse(Array(text.utf8)) == value)
        #expect(try JSONParser.parse(Array(#"{"s": "\u00e9\ud83d\ude00\/"}"#.utf8)) == .object(["s": .string("é😀/")]))
    }

    /// Strings without escapes are decoded straight from the document, others byte by byte; both
    /// give the same text, keep what comes before an escape, and repair invalid UTF-8.
    @Test func jsonStringsWithAndWithoutEscapes() throws {
        #expect(try JSONParser.parse(Array(#"["plain/é.png", "ab\ncd", "\"q\"", "", "x\\"]"#.utf8))
                == .array([.string("plain/é.png"), .string("ab\ncd"), .string("\"q\""), .string(""), .string("x\\")]))
        #expect(try JSONParser.parse([0x22, 0x61, 0xFF, 0x22]) == .string("a\u{FFFD}"))
        #expect(try JSONParser.parse([0x22, 0xFF, 0x5C, 0x6E, 0x22]) == .string("\u{FFFD}\n"))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "{\"a\":1,\"a\":2}", "[1] x", "\"tab\there\"", "\"abc", "\"ab\\"])
    func jsonRejectsMalformedInput(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test(arguments: [
        ("1.5", 1.5), ("-0.25", -0.25), ("1e3", 1000), ("2.5E-1", 0.25), ("1E+2", 100), ("0.1", 0.1), ("-0.0", -0.0),
        ("0e0", 0), ("123.456e-2", 1.23456), ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", 5e-324),
    ] as [(String, Double)])
    func jsonReadsNumbersWithFractionOrExponent(_ text: String, _ expected: Double) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == .number(expected))
        #expect(try JSONParser.parse(Array("[\(text)]".utf8)) == .array([.number(expected)]))
    }

    @Test func jsonIntegralLiteralsStayExactIntegers() throws {
        #expect(try JSONParser.parse(Array("0".utf8)) == .integer(0))
        #expect(try JSONParser.parse(Array("-0".utf8)) == .integer(0))
        #expect(try JSONParser.parse(Array("-9223372036854775808".utf8)) == .integer(.min))
        #expect(try JSONParser.parse(Array("[9007199254740993]".utf8)) == .array([.integer(9_007_199_254_740_993)]))
        #expect(JSONValue.number(1.5).integerValue == nil && JSONValue.number(1e3).integerValue == nil)
        #expect(JSONValue.integer(3).numberValue == 3 && JSONValue.number(0.5).numberValue == 0.5)
        #expect(JSONValue.string("1").numberValue == nil)
    }

    @Test(arguments: ["1.", ".5", "01", "-01", "1e", "1e+", "-", "-.5", "+1", "1.e3", "0x10", "1e400", "-1e400",
                      "9223372036854775808", "[1.5.2]", "Infinity", "NaN", "1 .5"])
    func jsonRejectsMalformedNumbers(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func jsonWritesNumbersThatReadBack() throws {
        for number in [1.5, -0.25, 0.1, 1e-7, 1e21, 100, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
            let text = JSONWriter.string(.array([.number(number)]))
            #expect(try JSONParser.parse(Array(text.utf8)) == .array([.number(number)]), "\(text)")
        }
    }

    @Test(arguments: [
        ("\"width\": 1.5", "cannot read manifest m: output 0: 'width' must be an integer, not 1.5"),
        ("\"width\": 1e3", "cannot read manifest m: output 0: 'width' must be an integer, not 1000.0"),
        ("\"width\": 1.0", "cannot read manifest m: output 0: 'width' must be an integer, not 1.0"),
        ("\"width\": \"1\"", "cannot read manifest m: output 0: 'width' is not an integer"),
        ("\"output\": 7", "cannot read manifest m: output 0: 'output' is not a string"),
    ])
    func manifestsStillNeedIntegers(_ replacement: String, _ expected: String) throws {
        let fingerprint = SourceFingerprint(sha256: "ab", size: 10, modifiedNanoseconds: 1, changedNanoseconds: 2, inode: 3)
        let entry = ManifestEntry(output: "a.png", source: "in/a.png", sourceRelative: "a.png", scale: 1, settings: "s", toolVersion: "v",
                                  width: 4, height: 2, fileSHA256: "f", pixelSHA256: "p", sourceFingerprint: fingerprint)
        let text = String(decoding: Manifest(entries: [entry]).encoded(), as: UTF8.self)
        let key = replacement.prefix { $0 != ":" }
        let original = key == "\"width\"" ? "\"width\": 4" : "\"output\": \"a.png\""
        #expect(text.contains(original))
        let damaged = text.replacing(original, with: replacement)
        #expect(throws: BatchError.unreadableManifest(path: "m", reason: String(expected.dropFirst("cannot read manifest m: ".count)))) {
            try Manifest.decode(Array(damaged.utf8), path: "m")
        }
        do { _ = try Manifest.decode(Array(damaged.utf8), path: "m") } catch { #expect(error.message == expected) }
    }

    @Test func manifestNamesAMissingMember() {
        let text = #"{"format": 1, "outputs": [{"output": "a.png"}]}"#
        #expect(throws: BatchError.unreadableManifest(path: "m", reason: "output 0: 'source' is missing")) {
            try Manifest.decode(Array(text.utf8), path: "m")
        }
        #expect(throws: BatchError.unreadableManifest(path: "m", reason: "output 0: not an object")) {
            try Manifest.decode(Array(#"{"format": 1, "outputs": [3]}"#.utf8), path: "m")
        }
        #expect(throws: BatchError.unreadableManifest(path: "m", reason: "unknown format version")) {
            try Manifest.decode(Array(#"{"format": 1.0, "outputs": []}"#.utf8), path: "m")
        }
    }

    @Test func manifestRoundTrips() throws {
        let fingerprint = SourceFingerprint(sha256: "ab", size: 10, modifiedNanoseconds: 1, changedNanoseconds: 2, inode: UInt64.max)
        let manifest = Manifest(entries: [
            ManifestEntry(output: "z.png", source: "in/z.png", sourceRelative: "z.png", scale: 1, settings: "s", toolVersion: "v", width: 1, height: 2,
                          fileSHA256: "f", pixelSHA256: "p", sourceFingerprint: fingerprint),
            ManifestEntry(output: "a\n.png", source: "in/a\n.png", sourceRelative: "a\n.png", scale: 2, settings: "s", toolVersion: "v", width: 3, height: 4,
                          fileSHA256: "f2", pixelSHA256: "p2", sourceFingerprint: fingerprint),
        ])
        let bytes = manifest.encoded()
        // The hand-laid encoder writes exactly what the generic writer makes of the same document,
        // for several entries, none, names that need escaping or are not ASCII, and negative and
        // extreme integers.
        #expect(bytes == JSONWriter.bytes(manifest.document))
        #expect(Manifest().encoded() == JSONWriter.bytes(Manifest().document))
        var wide = manifest
        for (n, name) in ["é/名.png", "tab\t\"q\".png", "b.png", "a/b/c.png"].enumerated() {
            var entry = manifest.entries["z.png"]!
            entry.output = FilePath(name)
            entry.source = FilePath("in/" + name)
            entry.scale = Scale(n + 1)
            // Timestamps before 1970 are negative; the extremes spell as `String` spells them.
            entry.sourceFingerprint.modifiedNanoseconds = [Int64.min, -1, 0, Int64.max][n]
            entry.sourceFingerprint.changedNanoseconds = [-10, Int64.min + 1, 9, 1_764_720_000_123_456_789][n]
            wide.entries[FilePath(name)] = entry
        }
        #expect(wide.encoded() == JSONWriter.bytes(wide.document))
        #expect(try Manifest.decode(wide.encoded(), path: "m") == wide)
        #expect(try Manifest.decode(bytes, path: "m") == manifest)
        #expect(try Manifest.decode(bytes, path: "m").encoded() == bytes)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("{\n  \"format\": 3,\n  \"outputs\": [\n    {\n      \"fileSHA256\": \"f2\",\n      \"format\": \"png\""))
        #expect(throws: BatchError.self) { try Manifest.decode(Array(#"{"format": 4, "outputs": []}"#.utf8), path: "m") }
    }
}
