import Foundation
import Testing
import TestSupport

/// Four shards through GNU parallel with `--shard auto`, under a simulated Slurm array and a
/// simulated Kubernetes Indexed Job; their manifests merged and checked: every output exactly
/// once, the same bytes and the same manifest as one process makes.
@Suite struct ScaleOutTests {
    static func tree() throws -> String {
        let tree = Fixtures.temporaryDirectory("scale-out-in")
        let photos = Fixtures.path("../../Assets/samples/photos")
        for folder in ["a", "b/c"] {
            try FileManager.default.createDirectory(atPath: tree + "/" + folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: photos) {
                try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: tree + "/\(folder)/" + name)
            }
        }
        for name in ["basn2c08.png", "basn6a08.png", "basn0g16.png", "tbbn3p08.png", "s39i3p04.png"] {
            try FileManager.default.copyItem(atPath: Fixtures.path("pngsuite/" + name), toPath: tree + "/a/" + name)
        }
        return tree
    }

    static let schedulers: [(name: String, variables: String, extra: String)] = [
        ("slurm", "SLURM_ARRAY_TASK_ID=$(({} + 3)) SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_COUNT=4", ""),
        ("kubernetes", "JOB_COMPLETION_INDEX={}", "--shard-count 4"),
        ("aws", "AWS_BATCH_JOB_ARRAY_INDEX={}", "--shard-count 4"),
    ]

    @Test(arguments: schedulers.map(\.name))
    func fourShardsThroughParallelAreOneRun(_ scheduler: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel"), "GNU parallel missing: make deps installs it")
        let (_, variables, extra) = Self.schedulers.first { $0.name == scheduler }!
        let tree = try Self.tree()
        let options = ["--widths", "96,200", "--format", "png,webp", "-j", "1"]
        let single = Fixtures.temporaryDirectory("scale-out-single")
        let one = try BuiltBinary.run([tree, "-o", single] + options)
        #expect(one.status == 0, "\(one.err)")

        let sharded = Fixtures.temporaryDirectory("scale-out-\(scheduler)")
        let logs = Fixtures.temporaryDirectory("scale-out-logs")
        let command = "env \(variables) '\(BuiltBinary.path)' '\(tree)' -o '\(sharded)' \(options.joined(separator: " ")) --shard auto \(extra) -v 2> '\(logs)/{}'"
        let parallel = try BuiltBinary.run(["/usr/bin/parallel", "--will-cite", "-j", "2", "-k", command, ":::", "0", "1", "2", "3"],
                                           executable: "/usr/bin/parallel")
        #expect(parallel.status == 0, "\(parallel.err)")
        // Each task printed its slice first: task i is slice i + 1 of 4.
        for task in 0..<4 {
            let log = (try? String(contentsOfFile: "\(logs)/\(task)", encoding: .utf8)) ?? ""
            #expect(log.hasPrefix("shard \(task + 1)/4 (from "), "\(log)")
        }
        // A shard with no image writes no manifest; the others each wrote theirs.
        let shards = (1...4).map { "\(sharded)/thumbgen-manifest.\($0)-of-4.json" }.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(shards.count >= 2)

        let merged = sharded + "/thumbgen-manifest.json"
        let merge = try BuiltBinary.run(["manifest", "merge"] + shards + ["-o", merged])
        #expect(merge.status == 0 && merge.err.isEmpty, "\(merge.err)")
        // The union is the one-process run: the same manifest bytes, the same files.
        #expect(FileManager.default.contents(atPath: merged) == FileManager.default.contents(atPath: single + "/thumbgen-manifest.json"))
        let outputs = Fixtures.files(under: sharded).filter { !$0.hasPrefix("thumbgen-manifest") }.sorted()
        #expect(outputs == Fixtures.files(under: single).filter { !$0.hasPrefix("thumbgen-manifest") }.sorted())
        #expect(outputs.count >= 11 * 2, "\(outputs)")
        for output in outputs {
            #expect(FileManager.default.contents(atPath: sharded + "/" + output) == FileManager.default.contents(atPath: single + "/" + output), "\(output)")
        }
        let check = try BuiltBinary.run(["check", merged, "--summary"])
        #expect(check.status == 0 && check.err.hasPrefix("\(outputs.count) outputs checked, 0 differ"), "\(check.err)")
    }

    @Test func twoShardsClaimingOneOutputIsAnError() throws {
        let tree = try Self.tree()
        let out = Fixtures.temporaryDirectory("scale-out-clash")
        #expect(try BuiltBinary.run([tree, "-o", out, "--shard", "1/2"]).status == 0)
        #expect(try BuiltBinary.run([tree, "-o", out, "--shard", "1/3"]).status == 0)
        let merged = out + "/merged.json"
        let merge = try BuiltBinary.run(["manifest", "merge", out + "/thumbgen-manifest.1-of-2.json", out + "/thumbgen-manifest.1-of-3.json", "-o", merged])
        #expect(merge.status == 1 && merge.err.hasPrefix("thumbgen: output ") && merge.err.contains(" is claimed by both "), "\(merge.err)")
        #expect(!FileManager.default.fileExists(atPath: merged))
    }
}
