import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI

/// Every command's `--help`, compared whole with its snapshot in `Tests/Fixtures/help/` (not by
/// a prefix or a phrase): a changed help text is a changed fixture, and the commit says why.
/// `THUMBGEN_RECORD_HELP=1` rewrites the snapshots from the current texts.
@Suite struct HelpSnapshotTests {
    /// The snapshot's name and the words before `--help` (none for the default command).
    static let commands: [(snapshot: String, words: [String])] = [
        ("thumbgen", []), ("info", ["info"]), ("sheet", ["sheet"]), ("stars", ["stars"]), ("check", ["check"]), ("build", ["build"]), ("icons", ["icons"]), ("manifest", ["manifest"]),
    ]

    @Test(arguments: commands.map(\.snapshot))
    func helpIsItsSnapshot(_ snapshot: String) throws {
        let words = Self.commands.first { $0.snapshot == snapshot }!.words
        let help = CLIRun(words + ["--help"])
        #expect(help.status == .success && help.err.isEmpty)
        let path = Fixtures.path("help/\(snapshot).txt")
        if ProcessInfo.processInfo.environment["THUMBGEN_RECORD_HELP"] != nil {
            try help.out.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(help.out == expected, "help/\(snapshot).txt differs from `thumbgen \((words + ["--help"]).joined(separator: " "))`")
        // -h is the same help.
        #expect(CLIRun(words + ["-h"]).out == help.out)
    }
}
