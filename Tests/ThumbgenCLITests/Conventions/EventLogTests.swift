import Foundation
import Testing
import TestSupport

/// `--events DEST`: one JSON line per file, in plan order, for written, up-to-date, failed and
/// skipped files; everything but `ms` the same for any job count.
@Suite struct EventLogTests {
    static func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    @Test func oneLinePerFileForEachOutcome() throws {
        let dir = Fixtures.temporaryDirectory("events")
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        for name in ["a.png": "basn2c08.png", "c.png": "basn6a08.png"] {
            try FileManager.default.copyItem(atPath: Fixtures.path("pngsuite/" + name.value), toPath: dir + "/in/" + name.key)
        }
        FileManager.default.createFile(atPath: dir + "/in/b.png", contents: Data("not a png".utf8))
        FileManager.default.createFile(atPath: dir + "/in/notes.txt", contents: Data("hi".utf8))

        var runs: [[[String: Any]]] = []
        for jobs in ["1", "3"] {
            let out = dir + "/out-\(jobs)"
            let first = try BuiltBinary.run([dir + "/in", "-o", out, "--scales", "1,2", "-j", jobs, "--events", dir + "/first-\(jobs).jsonl"])
            #expect(first.status == 1)
            let lines = try Self.lines(dir + "/first-\(jobs).jsonl")
            #expect(lines.map { $0["path"] as! String } == ["a.png", "b.png", "c.png", "notes.txt"].map { dir + "/in/" + $0 })
            #expect(lines.map { $0["outcome"] as! String } == ["written", "failed", "written", "skipped"])
            #expect(lines[0]["outputs"] as! [String] == [out + "/a.png", out + "/a@2x.png"])
            let bytes = try FileManager.default.attributesOfItem(atPath: out + "/a.png")[.size] as! Int
                + (try FileManager.default.attributesOfItem(atPath: out + "/a@2x.png")[.size] as! Int)
            #expect(lines[0]["bytes"] as! Int == bytes)
            #expect((lines[1]["reason"] as! String).hasPrefix("not a supported image"))
            #expect(lines[3]["reason"] as! String == "not an image")
            #expect(lines.allSatisfy { ($0["ms"] as? Int).map { $0 >= 0 } ?? false })
            runs.append(lines)

            // A rerun: up to date, nothing written; to standard output this time.
            let rerun = try BuiltBinary.run([dir + "/in", "-o", out, "--scales", "1,2", "-j", jobs, "--events", "-"])
            let again = rerun.out.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            #expect(again.map { $0["outcome"] as! String } == ["up-to-date", "failed", "up-to-date", "skipped"])
            #expect(again[0]["outputs"] as! [String] == [out + "/a.png", out + "/a@2x.png"] && again[0]["bytes"] as! Int == 0)
        }
        // Apart from ms and the output folder, the lines do not depend on -j.
        func stable(_ lines: [[String: Any]]) -> [String] {
            lines.map { line in "\(line["path"]!) \(line["outcome"]!) \(line["bytes"]!) \(line["reason"] ?? "") \((line["outputs"] as! [String]).count)" }
        }
        #expect(stable(runs[0]) == stable(runs[1]))
        #expect(try BuiltBinary.run([dir + "/in", "-o", dir + "/x", "--events", "fd:99"]).status == 64)
    }
}
