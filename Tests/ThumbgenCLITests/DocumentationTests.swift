import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI

/// The README and the pages in docs/ are held to the tool: every code fence is closed, every
/// `--flag` they name is one a command accepts (or another tool's, listed below with that tool),
/// and every relative link leads to a file, and to a heading when it names one.
@Suite struct DocumentationTests {
    static let repository = Fixtures.repository

    /// README.md and every page under docs/, as (path relative to the repository, text).
    static func pages() throws -> [(path: String, text: String)] {
        let docs = repository.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return try (["README.md"] + names.map { "docs/" + $0 }).map { path in
            (path, try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8))
        }
    }

    /// Flags of other tools that the pages show in their commands, each with the tool it belongs to.
    static let otherToolsFlags: [String: String] = [
        "--allow-writing-to-package-directory": "swift package",
        "--target": "swift package",
        "--filter": "swift test",
        "--sshlogin": "GNU parallel",
        "--as": "prlimit",
        "--ios-color": "Tauri's `tauri icon`",
        "--requeue": "Slurm's sbatch",
        "--array": "Slurm's sbatch",
        "--cpus-per-task": "Slurm's sbatch",
        "--dependency": "Slurm's sbatch",
        "--will-cite": "GNU parallel",
    ]

    /// The switches `make install` uses to write man pages and completions: thumbgen accepts them,
    /// but no help lists them, since no user types them.
    static let generatorFlags: Set<String> = ["--generate-man", "--generate-completion"]

    /// Every option any command's help lists (the help texts come from the same tables as parsing),
    /// gathered once for the tests that need it.
    static let acceptedFlags: Set<String> = HelpSnapshotTests.commands.reduce(into: Set<String>()) { flags, command in
        flags.formUnion(Self.flags(in: CLIRun(command.words + ["--help"]).out))
    }.union(generatorFlags)

    /// `--name` tokens: two dashes and a lower-case word, not preceded by a letter, digit or dash.
    static func flags(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*"#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) })
    }

    @Test func theFlagPatternFindsFlagsAndNothingElse() {
        #expect(Self.flags(in: "use `--max-memory 2G` or --no-shrink-on-load; not a--b, x--y or ---") == ["--max-memory", "--no-shrink-on-load"])
    }

    @Test func everyCodeFenceIsClosed() throws {
        for page in try Self.pages() {
            let lines = page.text.split(separator: "\n", omittingEmptySubsequences: false)
            var open: Int?
            for (number, line) in lines.enumerated() {
                let trimmed = line.drop { $0 == " " }
                guard trimmed.hasPrefix("```") else {
                    continue
                }
                if open == nil {
                    open = number + 1
                } else {
                    #expect(trimmed == "```", "\(page.path):\(number + 1): a closing fence carries text: \(line)")
                    open = nil
                }
            }
            #expect(open == nil, "\(page.path):\(open ?? 0): code fence never closed")
            // A fence that is not at the start of its line is a fence nobody closed or opened.
            for (number, line) in lines.enumerated()
            where line.contains("```") && !line.drop(while: { $0 == " " }).hasPrefix("```") && !line.contains("````") {
                #expect(Bool(false), "\(page.path):\(number + 1): a code fence inside a line: \(line)")
            }
        }
    }

    @Test func everyFlagNamedIsAccepted() throws {
        let accepted = Self.acceptedFlags
        #expect(accepted.contains("--size") && accepted.contains("--platforms") && accepted.contains("--columns"))
        for page in try Self.pages() {
            let unknown = Self.flags(in: page.text).subtracting(accepted).subtracting(Self.otherToolsFlags.keys).sorted()
            #expect(unknown.isEmpty, "\(page.path) names flags no command accepts: \(unknown.joined(separator: ", "))")
        }
    }

    @Test func everyOtherToolsFlagIsStillUsedAndNotOurs() throws {
        let accepted = Self.acceptedFlags
        let named = try Self.pages().reduce(into: Set<String>()) { $0.formUnion(Self.flags(in: $1.text)) }
        for (flag, tool) in Self.otherToolsFlags {
            #expect(named.contains(flag), "\(flag) (\(tool)) is no longer named: drop it from the list")
            #expect(!accepted.contains(flag), "\(flag) is thumbgen's now, not only \(tool)'s")
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { c -> Character? in
            if c == " " { return "-" }
            return c.isLetter || c.isNumber || c == "-" || c == "_" ? c : nil
        })
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor("In `thumbgen.json`") == "in-thumbgenjson")
        #expect(Self.anchor("Hostile files and file systems") == "hostile-files-and-file-systems")
    }

    @Test func everyRelativeLinkLeadsSomewhere() throws {
        let pages = try Self.pages()
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var headings: [String: Set<String>] = [:]
        for page in pages {
            headings[page.path] = Set(page.text.split(separator: "\n").filter { $0.hasPrefix("#") }
                .map { Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)) })
        }
        var checked = 0
        for page in pages {
            let text = page.text
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(match.range(at: 1), in: text)!])
                if target.hasPrefix("http://") || target.hasPrefix("https://") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let folder = (page.path as NSString).deletingLastPathComponent
                let file = parts[0].isEmpty ? page.path : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(file).path),
                        "\(page.path): link to \(target): no such file")
                if parts.count == 2, let anchors = headings[file] {
                    #expect(anchors.contains(parts[1]), "\(page.path): link to \(target): no such heading in \(file)")
                }
                checked += 1
            }
        }
        #expect(checked >= 10)
    }
}
