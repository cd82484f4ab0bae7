import Foundation
import Testing
import TestSupport

/// docs/golden-tests.md: its ThumbKitTesting example is Examples/GoldenTests' test file, word for
/// word (built and run by Scripts/golden-example-test.sh), and every flag it names is accepted.
@Suite struct GoldenDocsTests {
    static let page = Fixtures.repository.appendingPathComponent("docs/golden-tests.md").path

    @Test func theExampleIsTheExamplePackagesTest() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        let example = try String(contentsOfFile: Fixtures.repository
            .appendingPathComponent("Examples/GoldenTests/Tests/GoldenTests/ThumbnailGoldenTests.swift").path, encoding: .utf8)
        let start = try #require(text.range(of: "```swift\n"))
        let end = try #require(text.range(of: "```\n", range: start.upperBound..<text.endIndex))
        #expect(String(text[start.upperBound..<end.lowerBound]) == example)
    }

    @Test func everyFlagItNamesIsInACommandsHelp() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        let helpFolder = Fixtures.path("help")
        let help = try FileManager.default.contentsOfDirectory(atPath: helpFolder).sorted()
            .map { try String(contentsOfFile: helpFolder + "/" + $0, encoding: .utf8) }.joined()
        let flags = Set(text.matches(of: /(?:^|[^\w-])(--[a-z][a-z0-9-]*)/).map { String($0.output.1) })
        #expect(flags.isSuperset(of: ["--tolerance", "--diff", "--update", "--json", "--summary", "--version"]))
        for flag in flags.sorted() { #expect(help.contains(flag + " ") || help.contains(flag + "\n") || help.contains(flag + ","), "\(flag)") }
        for short in ["-v", "-q"] { #expect(text.contains("`\(short)`") && help.contains(short + ", "), "\(short)") }
    }
}
