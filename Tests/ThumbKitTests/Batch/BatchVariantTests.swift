import Foundation
import Glibc
import Testing
import TestSupport
@testable import ThumbKit

/// Batches that make sets of outputs: width-named files, the manifest that keeps every output it
/// has seen, pruning by source, `--base`, a manifest outside the outputs, groups that share a
/// decode, and results that do not depend on the job count.
@Suite struct BatchVariantTests {
    /// A tree of real images: `in/wide.png` 300×200, `in/day1/tall.png` 120×240, `in/day1/tiny.png` 40×30.
    func photoTree() -> ScratchDirectory {
        let dir = ScratchDirectory()
        dir.write("in/wide.png", try! PNGEncoder().encode(TestPatterns.gradient(300, 200)))
        dir.write("in/day1/tall.png", try! PNGEncoder().encode(TestPatterns.checkerboard(120, 240, cell: 7)))
        dir.write("in/day1/tiny.png", try! PNGEncoder().encode(TestPatterns.gradient(40, 30)))
        return dir
    }

    static let renderer: BatchRenderer = { source in
        try ThumbnailRenderer.render(source, limits: .default, allowPartial: false)
    }

    func configuration(_ dir: ScratchDirectory, inputs: [String] = ["in"], widths: [Int] = [], formats: [OutputFormat] = [.png],
                       name: String = "%s", scales: [Scale] = [1], base: String? = nil, manifest: String? = nil,
                       jobs: Int = 2) -> BatchConfiguration {
        let set = ThumbnailSet(options: ThumbnailOptions(size: ThumbnailSize(width: 64, height: 64)), widths: widths.map { .pixels($0) },
                               scales: scales, formats: formats)
        return BatchConfiguration(inputs: inputs.map { FilePath(dir.at($0)) }, outputDirectory: FilePath(dir.at("out")),
                                  naming: try! OutputNaming(format: name), thumbnailSet: set,
                                  manifestPath: manifest.map { FilePath(dir.at($0)) }, base: base.map { FilePath(dir.at($0)) }, jobs: jobs)
    }

    func run(_ configuration: BatchConfiguration, progress: BatchProgressHandler? = nil) throws -> BatchSummary {
        try BatchRunner(configuration: configuration, renderer: Self.renderer, progress: progress).run()
    }

    func outputs(_ dir: ScratchDirectory) -> [String] {
        Fixture.tree(dir.at("out")).keys.filter { !$0.hasSuffix(".json") }.sorted()
    }

    @Test func widthsAndFormatsAreNamedByTheRealWidth() throws {
        let dir = photoTree()
        let summary = try run(configuration(dir, widths: [50, 100, 250], formats: [.webp(WebPEncoder()), .jpeg(JPEGEncoder())], name: "%s-%w"))
        #expect(summary.written == 3 && summary.filesWritten == 12 && summary.failed.isEmpty, "\(summary.failed)")
        // tall (120): 250 collapses to 120 (100 × 1.25 = 125 ≥ 120: not added); tiny (40): every
        // width is above it, so 40 alone; wide (300): 250 < 300 stays.
        #expect(outputs(dir) == [
            "day1/tall-100.jpg", "day1/tall-100.webp", "day1/tall-50.jpg", "day1/tall-50.webp",
            "day1/tiny-40.jpg", "day1/tiny-40.webp",
            "wide-100.jpg", "wide-100.webp", "wide-250.jpg", "wide-250.webp", "wide-50.jpg", "wide-50.webp",
        ].sorted())
        let manifest = try Manifest.load(path: FilePath(dir.at("out/thumbgen-manifest.json")))
        let tiny = try #require(manifest.entries["day1/tiny-40.webp"])
        #expect(tiny.variantWidth == 40 && tiny.width == 40 && tiny.height == 30 && tiny.format == "webp")
        #expect(tiny.sourceWidth == 40 && tiny.sourceHeight == 30 && tiny.source == "../in/day1/tiny.png")
        #expect(manifest.entries.count == 12)
        #expect(Set(manifest.entries.keys.map(\.description)) == Set(outputs(dir)))
        // A second run reads no header: the sizes come from the manifest, and nothing is written.
        let before = Fixture.mtimes(dir.at("out"))
        let again = try run(configuration(dir, widths: [50, 100, 250], formats: [.webp(WebPEncoder()), .jpeg(JPEGEncoder())], name: "%s-%w"))
        #expect(again.upToDate == 3 && again.written == 0 && Fixture.mtimes(dir.at("out")) == before)
    }

    /// Runs with other settings into one folder add up: the manifest lists both sets, and a third
    /// run like the second writes nothing at all.
    @Test func theManifestKeepsEveryOutputItHasSeen() throws {
        let dir = photoTree()
        _ = try run(configuration(dir, formats: [.png]))
        _ = try run(configuration(dir, widths: [32, 48], formats: [.webp(WebPEncoder())], name: "%s-%w"))
        let manifest = try Manifest.load(path: FilePath(dir.at("out/thumbgen-manifest.json")))
        // tiny (40) gets 32 only: 48 is above it, and 32 × 1.25 = 40 is not below it.
        #expect(manifest.entries.count == 3 + 5)
        #expect(Set(manifest.entries.keys.map(\.description)) == Set(outputs(dir)))
        let before = Fixture.mtimes(dir.at("out"))
        let third = try run(configuration(dir, widths: [32, 48], formats: [.webp(WebPEncoder())], name: "%s-%w"))
        #expect(third.written == 0 && third.upToDate == 3)
        #expect(Fixture.mtimes(dir.at("out")) == before, "not even the manifest is rewritten")
        // And the first set is still up to date too.
        #expect(try run(configuration(dir, formats: [.png])).upToDate == 3)
        // A check covers both sets.
        let report = try Batch.check(manifestPaths: [FilePath(dir.at("out/thumbgen-manifest.json"))], renderer: Self.renderer)
        #expect(report.checked == 8 && report.mismatches.isEmpty, "\(report.formatted())")
    }

    /// A run over one day's subfolder, with `--base`, writes where a run over the whole tree does,
    /// keeps the rest of the manifest, and prunes nothing outside what it can tell is gone.
    @Test func aRunOverASubfolderAgreesWithTheWholeTree() throws {
        let dir = photoTree()
        _ = try run(configuration(dir))
        #expect(outputs(dir) == ["day1/tall.png", "day1/tiny.png", "wide.png"])
        var day = configuration(dir, inputs: ["in/day1"], base: "in")
        day.force = true
        day.prune = .orphans
        let summary = try run(day)
        #expect(summary.written == 2 && summary.pruned.isEmpty)
        #expect(outputs(dir) == ["day1/tall.png", "day1/tiny.png", "wide.png"], "same places, nothing removed")
        #expect(try Manifest.load(path: FilePath(dir.at("out/thumbgen-manifest.json"))).entries.count == 3)
        // Without --base the subfolder's files would land at the top: that is what --base is for.
        #expect(throws: BatchError.outsideBase(input: FilePath(dir.at("elsewhere")), base: FilePath(dir.at("in")))) {
            try BatchPlanner(configuration: configuration(dir, inputs: ["elsewhere"], base: "in")).plan()
        }
    }

    /// `--prune` removes an output when its source is gone or no longer an image, wherever it is in
    /// the manifest, and only then.
    @Test func pruneRemovesOutputsOfSourcesThatAreGone() throws {
        let dir = photoTree()
        _ = try run(configuration(dir))
        #expect(unlink(dir.at("in/wide.png")) == 0)
        dir.write("in/day1/tiny.png", Array("not an image any more".utf8))
        var day = configuration(dir, inputs: ["in/day1"], base: "in")
        day.prune = .orphans
        let summary = try run(day)
        // tiny.png fails (named like an image); wide.png is outside this run, but gone: pruned.
        #expect(summary.failed.count == 1 && summary.pruned.sorted() == [dir.at("out/day1/tiny.png"), dir.at("out/wide.png")])
        #expect(outputs(dir) == ["day1/tall.png"])
        #expect(try Manifest.load(path: FilePath(dir.at("out/thumbgen-manifest.json"))).entries.keys.map(\.description) == ["day1/tall.png"])
    }

    /// `--manifest` keeps the manifest outside the outputs; paths in it are relative to its own
    /// folder, so `check` works from anywhere.
    @Test func aManifestOutsideTheOutputFolder() throws {
        let dir = photoTree()
        let configuration = configuration(dir, manifest: "build/state.json")
        #expect(try run(configuration).written == 3)
        #expect(!Fixture.tree(dir.at("out")).keys.contains { $0.hasSuffix(".json") }, "the output folder holds outputs only")
        let manifest = try Manifest.load(path: FilePath(dir.at("build/state.json")))
        #expect(manifest.sortedEntries.map(\.output.description) == ["../out/day1/tall.png", "../out/day1/tiny.png", "../out/wide.png"])
        #expect(manifest.sortedEntries.map(\.source.description) == ["../in/day1/tall.png", "../in/day1/tiny.png", "../in/wide.png"])
        let cwd = FilePath.workingDirectory
        #expect(chdir("/") == 0)
        defer { _ = cwd.withCString { chdir($0) } }
        let report = try Batch.check(manifestPaths: [FilePath(dir.at("build/state.json"))], renderer: Self.renderer)
        #expect(report.checked == 3 && report.mismatches.isEmpty, "\(report.formatted())")
    }

    /// A manifest of format 2 (sources as the run opened them) is read: its sources are taken
    /// relative to the working directory, and made relative to the manifest.
    @Test func formatTwoManifestsAreRead() throws {
        let dir = photoTree()
        _ = try run(configuration(dir))
        let path = FilePath(dir.at("out/thumbgen-manifest.json"))
        var text = String(decoding: Fixture.readFile(path), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"format\": 3", with: "\"format\": 2")
            .replacingOccurrences(of: "\"source\": \"../in/", with: "\"source\": \"\(dir.at("in"))/")
        text = text.split(separator: "\n").filter { !$0.contains("\"format\": \"png\"") }.joined(separator: "\n")
        dir.write("out/thumbgen-manifest.json", Array(text.utf8))
        let old = try Manifest.load(path: path)
        #expect(old.sortedEntries.map(\.source.description) == ["../in/day1/tall.png", "../in/day1/tiny.png", "../in/wide.png"])
        #expect(old.sortedEntries.allSatisfy { $0.format == "png" })
        #expect(try run(configuration(dir)).upToDate == 3)
    }

    /// Groups that read the same source decode it once and write their own outputs; warnings,
    /// `-v` events, files and manifest are the same for any job count.
    @Test func groupsShareASourceAndResultsDoNotDependOnJobs() throws {
        var logs: [[String]] = []
        var trees: [[String: [UInt8]]] = []
        for jobs in [1, 3] {
            let dir = photoTree()
            let small = OutputGroup(name: "a", inputs: [FilePath(dir.at("in"))], base: FilePath(dir.at("in")), outputDirectory: FilePath(dir.at("out/small")),
                                    naming: try OutputNaming(), thumbnailSet: ThumbnailSet(options: ThumbnailOptions(size: ThumbnailSize(width: 60, height: 60)),
                                                                                           scales: [1, 2]))
            let web = OutputGroup(name: "b", inputs: [FilePath(dir.at("in/day1"))], base: FilePath(dir.at("in")), outputDirectory: FilePath(dir.at("out/web")),
                                  naming: try OutputNaming(format: "%s-%w"),
                                  thumbnailSet: ThumbnailSet(options: ThumbnailOptions(), widths: [.pixels(30), .pixels(100)], formats: [.webp(WebPEncoder())]))
            let configuration = BatchConfiguration(groups: [small, web], manifestPath: FilePath(dir.at("out/m.json")), jobs: jobs)
            let plan = try BatchPlanner(configuration: configuration).plan()
            #expect(plan.sources.map(\.memberships.count) == [2, 2, 1], "the day1 files are one item for both groups")
            let log = LockedLog()
            let summary = try BatchRunner(configuration: configuration, renderer: Self.renderer, progress: { event, _ in
                switch event {
                case .written(let path), .upToDate(let path): log.append("done " + path.dropFirst(dir.path.count))
                case .warning(let path, let reason): log.append("warning " + path.dropFirst(dir.path.count) + ": " + reason)
                case .skipped(let message): log.append("skipped " + message.line)
                default: break
                }
            }).run()
            #expect(summary.written == 3 && summary.filesWritten == 2 * 3 + 2 + 2)
            logs.append(log.lines)
            var tree = Fixture.tree(dir.at("out"))
            tree["m.json"] = Array(String(decoding: tree["m.json"]!, as: UTF8.self)
                .replacingOccurrences(of: "\"sourceChangedNanoseconds\": [0-9]+", with: "", options: .regularExpression)
                .replacingOccurrences(of: "\"sourceModifiedNanoseconds\": [0-9]+", with: "", options: .regularExpression)
                .replacingOccurrences(of: "\"sourceInode\": [0-9]+", with: "", options: .regularExpression).utf8)
            trees.append(tree)
        }
        #expect(logs[0] == logs[1])
        #expect(logs[0] == [
            "done /in/day1/tall.png",
            "warning /in/day1/tiny.png: enlarged beyond the 40x30 source for @2x (80x60)",
            "done /in/day1/tiny.png",
            "done /in/wide.png",
        ])
        #expect(trees[0] == trees[1])
        #expect(trees[0].keys.sorted() == ["m.json", "small/day1/tall.png", "small/day1/tall@2x.png", "small/day1/tiny.png", "small/day1/tiny@2x.png",
                                           "small/wide.png", "small/wide@2x.png", "web/day1/tall-100.webp", "web/day1/tall-30.webp",
                                           "web/day1/tiny-30.webp", "web/day1/tiny-40.webp"])
    }

    @Test func twoSourcesNamedAlikeCollideBeforeAnyWork() throws {
        let dir = photoTree()
        dir.write("in/wide.jpg", JPEGFixtures.encode(JPEGFixtures.rgb(width: 60, height: 40) { _, _ in (1, 2, 3) }, width: 60, height: 40))
        // Their widths differ (60 and 300), so only the names with %w left open meet.
        let configuration = configuration(dir, widths: [80], name: "%s-%w")
        #expect(throws: BatchError.self) { try BatchPlanner(configuration: configuration).plan() }
        do {
            _ = try BatchPlanner(configuration: configuration).plan()
        } catch {
            #expect(error.message.contains("wide-*.png"), "\(error.message)")
        }
        #expect(!FileSystem.isRegularFile(FilePath(dir.at("out/thumbgen-manifest.json"))))
    }
}

/// Lines gathered from the progress handler (which the runner never calls twice at once).
final class LockedLog: @unchecked Sendable {
    private(set) var lines: [String] = []
    func append(_ line: some StringProtocol) { lines.append(String(line)) }
}
