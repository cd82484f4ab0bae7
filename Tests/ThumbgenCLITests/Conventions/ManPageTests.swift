import Foundation
import Testing
@testable import ThumbgenCLI
import TestSupport

/// The man pages `make install` puts in place, made by the built binary from the option tables,
/// rendered by groff and man as a user's `man thumbgen` would, with every warning turned on.
@Suite struct ManPageTests {
    static let pages: String = {
        let folder = Fixtures.temporaryDirectory("man")
        let run = try? BuiltBinary.run(["--generate-man", folder])
        precondition(run?.status == 0, "thumbgen --generate-man failed: \(run?.err ?? "")")
        return folder
    }()

    @Test func thereIsAPagePerCommand() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.pages).sorted()
        let expected = ThumbgenMain.commands.map { $0.name.isEmpty ? "thumbgen.1" : "thumbgen-\($0.name).1" }.sorted()
        #expect(names == expected)
    }

    @Test(arguments: ThumbgenMain.commands.map(\.name))
    func pageRendersWithoutWarningsAndListsEveryOption(_ name: String) throws {
        let page = Self.pages + "/" + (name.isEmpty ? "thumbgen.1" : "thumbgen-\(name).1")
        let groff = try BuiltBinary.run(["/usr/bin/groff", "-ww", "-man", "-Tutf8", "-z", page], executable: "/usr/bin/groff")
        #expect(groff.status == 0 && groff.err.isEmpty, "groff: \(groff.err)")
        let man = try BuiltBinary.run(["/usr/bin/env", "MANWIDTH=80", "MAN_KEEP_FORMATTING=0", "man", "--warnings", "-l", page],
                                      executable: "/usr/bin/env")
        #expect(man.status == 0 && man.err.isEmpty, "man: \(man.err)")
        // The rendered text names every option of the command's table, and its examples.
        // In a UTF-8 locale groff prints \- as U+2212 and hyphenation points as U+2010.
        // Overstrike (bold X as X, backspace, X) if man kept it, removed.
        let text = man.out.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{2010}\n", with: "")
            .replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
        let command = ThumbgenMain.commands.first { $0.name == name }!
        for option in command.help.options {
            #expect(text.contains("--\(option.long)"), "\(page) lacks --\(option.long)")
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for example in command.help.examples { #expect(words.contains(example.command), "\(page) lacks \(example.command)") }
        #expect(words.contains("NAME thumbgen\(name.isEmpty ? "" : "-" + name) - "), "\(words.prefix(200))")
    }

    @Test func theLimitsAndMemoryFormulaAreInThumbgen1() throws {
        let man = try BuiltBinary.run(["/usr/bin/env", "MANWIDTH=200", "man", "-l", Self.pages + "/thumbgen.1"], executable: "/usr/bin/env")
        #expect(man.out.contains("LIMITS AND MEMORY\n") && man.out.contains("Memory per job is about 9 MiB + 64 x width"))
    }

    @Test func roffIsEscaped() {
        #expect(ManPage.escape(".hidden -x a\\b 1–5") == "\\&.hidden \\-x a\\eb 1\\[u2013]5")
        #expect(ManPage.paragraphs("a\nb\n\n  x  y\nc") == ["a b", ".PP", ".PP", ".nf", "  x  y", ".fi", ".PP", "c"])
    }
}
