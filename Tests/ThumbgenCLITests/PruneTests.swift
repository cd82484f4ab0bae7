import Foundation
import Testing
@testable import ThumbgenCLI
import ThumbKit
import TestSupport

/// `--prune`: the output tree follows the input tree when sources go, and nothing thumbgen did
/// not write is ever removed.
@Suite struct PruneTests {
    let fileManager = FileManager.default

    func makeTree() throws -> String {
        let tree = Fixtures.temporaryDirectory("prune-in")
        try fileManager.createDirectory(atPath: tree + "/sub", withIntermediateDirectories: true)
        for (name, fixture) in [("a.png", "basn2c08.png"), ("b.png", "basn0g08.png"), ("sub/c.png", "basn6a08.png"), ("d.png", "basn3p08.png")] {
            try fileManager.copyItem(atPath: Fixtures.path("pngsuite/" + fixture), toPath: tree + "/" + name)
        }
        return tree
    }

    @Test func removesExactlyTheOrphanedOutputsAndTheirEntries() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("prune-out")
        #expect(CLIRun([tree, "-o", out, "--scales", "1,2"]).status == .success)
        // Not thumbgen's: a note of the user's, and a file in the folder of a source that goes.
        #expect(fileManager.createFile(atPath: out + "/notes.txt", contents: Data("mine".utf8)))
        // The user replaced d's output by hand: changed since thumbgen wrote it.
        try fileManager.removeItem(atPath: out + "/d.png")
        try fileManager.copyItem(atPath: out + "/a.png", toPath: out + "/d.png")
        for name in ["b.png", "sub/c.png", "d.png"] { try fileManager.removeItem(atPath: tree + "/" + name) }

        let run = CLIRun([tree, "-o", out, "--scales", "1,2", "--prune", "-v"])
        #expect(run.status == .success, "\(run.err)")
        // d@2x.png was thumbgen's and its source is gone; d.png was replaced by hand.
        #expect(Fixtures.files(under: out) == ["a.png", "a@2x.png", "d.png", "notes.txt", "thumbgen-manifest.json"], "\(Fixtures.files(under: out))")
        #expect(!fileManager.fileExists(atPath: out + "/sub"), "the folder pruning emptied is gone")
        #expect(fileManager.contents(atPath: out + "/notes.txt") == Data("mine".utf8))
        #expect(fileManager.contents(atPath: out + "/d.png") == fileManager.contents(atPath: out + "/a.png"), "a hand-made file is kept")
        for name in ["b.png", "b@2x.png", "sub/c.png", "sub/c@2x.png", "d@2x.png"] {
            #expect(run.err.contains("pruned: \(out)/\(name)\n"), "\(name): \(run.err)")
        }
        #expect(run.err.contains("skipped: \(out)/d.png: not pruned: changed since thumbgen wrote it"), "\(run.err)")
        #expect(run.err.contains("0 written, 1 up to date, 1 skipped, 0 failed, 5 pruned in "), "\(run.err)")
        let manifest = try Manifest.load(path: out + "/thumbgen-manifest.json")
        #expect(manifest.sortedEntries.map(\.output) == ["a.png", "a@2x.png"])
        #expect(CLIRun(["check", out]).status == .success)
        // Nothing left to prune: a rerun writes nothing.
        #expect(CLIRun([tree, "-o", out, "--scales", "1,2", "--prune", "--summary"]).err.hasPrefix("0 written, 1 up to date, 0 skipped, 0 failed in "))
        #expect(CLIRun(["--help"]).out.contains("--prune"))
    }

    @Test func withoutPruneOutputsOfDeletedSourcesStay() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("prune-off")
        #expect(CLIRun([tree, "-o", out]).status == .success)
        try fileManager.removeItem(atPath: tree + "/b.png")
        #expect(CLIRun([tree, "-o", out]).status == .success)
        #expect(Fixtures.files(under: out).contains("b.png"))
        // The manifest still lists it, so a later run with --prune can remove it.
        #expect(try Manifest.load(path: out + "/thumbgen-manifest.json").entries["b.png"] != nil)
        #expect(CLIRun([tree, "-o", out, "--prune"]).status == .success)
        #expect(!Fixtures.files(under: out).contains("b.png"))
        #expect(try Manifest.load(path: out + "/thumbgen-manifest.json").entries["b.png"] == nil)
    }

    @Test func eachShardPrunesOnlyItsOwnOutputs() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("prune-shards")
        for k in 1...3 { #expect(CLIRun([tree, "-o", out, "--shard", "\(k)/3"]).status == .success) }
        // The shards really split the sources (a shard with none writes no manifest).
        #expect(Batch.manifestPaths(in: FilePath(out)).count >= 2)
        #expect(Fixtures.files(under: out).filter { $0.hasSuffix(".png") } == ["a.png", "b.png", "d.png", "sub/c.png"])
        try fileManager.removeItem(atPath: tree + "/b.png")
        // Every shard runs with --prune: b's output goes (in whichever shard listed it), the
        // others stay, though each shard's plan holds only its own sources.
        for k in 1...3 { #expect(CLIRun([tree, "-o", out, "--shard", "\(k)/3", "--prune"]).status == .success) }
        #expect(Fixtures.files(under: out).filter { $0.hasSuffix(".png") } == ["a.png", "d.png", "sub/c.png"])
        let listed = try Batch.manifestPaths(in: FilePath(out)).flatMap { try Manifest.load(path: $0).sortedEntries.map(\.output.description) }
        #expect(listed.sorted() == ["a.png", "d.png", "sub/c.png"])
        #expect(CLIRun(["check", out]).status == .success)
    }
}
