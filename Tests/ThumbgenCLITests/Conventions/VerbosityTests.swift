import Foundation
import Testing
@testable import ThumbgenCLI
import ThumbKit
import TestSupport

/// `-q`, `-v` and `--summary` mean the same in every command that writes files: silence off a
/// terminal, the summary line when asked, a line per file with `-v`, and `-q` keeping only what
/// `--summary` asks for. (Captured output is never a terminal.)
@Suite struct VerbosityTests {
    static let photo = Fixtures.path("pngsuite/basn2c08.png")

    @Test(arguments: ["thumbgen", "build", "check", "sheet", "stars", "icons", "manifest"])
    func everyCommandThatWritesFilesTakesTheThreeOptions(_ command: String) {
        let help = CLIRun(command == "thumbgen" ? ["--help"] : [command, "--help"]).out
        for option in ["-q, --quiet", "-v, --verbose", "--summary"] {
            #expect(help.contains("  \(option) "), "\(command) --help lacks \(option)")
        }
    }

    @Test func starsSaysNothingByDefaultAndNamesEachFileWithVerbose() throws {
        let out = Fixtures.temporaryDirectory("verbosity-stars")
        let silent = CLIRun(["stars", "-o", out + "/a"])
        #expect(silent.status == .success && silent.err.isEmpty && silent.out.isEmpty, "\(silent.err)")

        let summary = CLIRun(["stars", "-o", out + "/b", "--summary"])
        #expect(summary.err == "5 badges written to \(out)/b\n", "\(summary.err)")

        let verbose = CLIRun(["stars", "-o", out + "/c", "-v"])
        let lines = verbose.err.split(separator: "\n").map(String.init)
        #expect(lines == (1...5).map { "\(out)/c/\($0)Star\($0 == 1 ? "" : "s")Small.png" } + ["5 badges written to \(out)/c"],
                "\(verbose.err)")
        #expect(FileManager.default.fileExists(atPath: out + "/c/3StarsSmall.png"))

        #expect(CLIRun(["stars", "-o", out + "/d", "-q", "-v"]).err.isEmpty, "-q wins over -v")
        #expect(CLIRun(["stars", "-o", out + "/e", "-q", "--summary"]).err == "5 badges written to \(out)/e\n")
    }

    @Test func sheetSaysNothingByDefaultAndCountsThePhotosWithSummary() throws {
        let out = Fixtures.temporaryDirectory("verbosity-sheet")
        let inputs = [Self.photo, Fixtures.path("pngsuite/basn6a08.png")]
        let silent = CLIRun(["sheet"] + inputs + ["-o", out + "/a.png"])
        #expect(silent.status == .success && silent.err.isEmpty, "\(silent.err)")

        let summary = CLIRun(["sheet"] + inputs + ["-o", out + "/b.png", "--summary"])
        #expect(summary.err == "2 photos on 1 page written to \(out)/b.png\n", "\(summary.err)")

        let verbose = CLIRun(["sheet"] + inputs + ["-o", out + "/c.png", "-v", "--per-page", "1"])
        #expect(verbose.err == "\(out)/c-1.png\n\(out)/c-1.json\n\(out)/c-2.png\n\(out)/c-2.json\n"
                + "2 photos on 2 pages written to \(out)/c-1.png … \(out)/c-2.png\n",
                "\(verbose.err)")
        #expect(CLIRun(["sheet"] + inputs + ["-o", out + "/d.png", "-q"]).err.isEmpty)
    }

    @Test func manifestMergeCountsTheOutputsWithSummary() throws {
        let out = Fixtures.temporaryDirectory("verbosity-merge")
        let inputs = [Self.photo, Fixtures.path("pngsuite/basn6a08.png")]
        for shard in ["1/2", "2/2"] {
            let run = CLIRun(inputs + ["-o", out, "--size", "16", "--shard", shard])
            #expect(run.status == .success, "\(run.err)")
        }
        let shards = ["1-of-2", "2-of-2"].map { "\(out)/thumbgen-manifest.\($0).json" }
        let merged = out + "/thumbgen-manifest.json"
        #expect(CLIRun(["manifest", "merge"] + shards + ["-o", merged]).err.isEmpty)
        let summary = CLIRun(["manifest", "merge"] + shards + ["-o", merged, "-v"])
        #expect(summary.err == "\(shards[0])\n\(shards[1])\n2 outputs from 2 manifests merged into \(merged)\n", "\(summary.err)")
    }

    @Test func checkWithQuietAndSummaryPrintsOnlyTheCounts() throws {
        let out = Fixtures.temporaryDirectory("verbosity-check")
        #expect(CLIRun([Self.photo, "-o", out, "--size", "16"]).status == .success)
        let manifest = out + "/thumbgen-manifest.json"
        #expect(CLIRun(["check", manifest]).err.isEmpty)
        #expect(CLIRun(["check", manifest, "-v"]).err == "\(out)/basn2c08.png: ok\n1 outputs checked, 0 differ\n")
        #expect(CLIRun(["check", manifest, "-q", "--summary"]).err == "1 outputs checked, 0 differ\n")
    }
}
