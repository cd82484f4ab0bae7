import Foundation
import Glibc
import Testing
import ThumbKit
import TestSupport

/// The binary under an address-space cap, as in a container with a memory limit.
@Suite(.serialized) struct MemoryCapTests {
    static let fileManager = FileManager.default
    static let hasPrlimit = fileManager.isExecutableFile(atPath: "/usr/bin/prlimit")

    /// A sparse file: `prefix`, then zeros up to `size` bytes, which take no disk.
    static func sparse(_ path: String, prefix: [UInt8], size: UInt64) throws {
        _ = fileManager.createFile(atPath: path, contents: Data(prefix))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
    }


    /// Good files, every hostile fixture, a PNG followed by 4 GiB of zeros and 4 GiB of zeros named
    /// `.png`, all in one batch under a 2 GiB address-space limit at two scales: every good file
    /// gets both thumbnails, every bad one exactly one line, and the process exits normally.
    @Test(.enabled(if: hasPrlimit, "needs prlimit (util-linux)"))
    func aBatchUnderAnAddressSpaceCapFinishesEveryGoodFile() throws {
        let root = Fixtures.temporaryDirectory("memcap")
        let tree = root + "/in"
        try Self.fileManager.createDirectory(atPath: tree + "/hostile", withIntermediateDirectories: true)
        var good: [String] = []
        for name in ["basn2c08.png", "basn6a16.png", "basi3p02.png", "s09n3p02.png", "tbbn0g04.png"] {
            _ = Self.fileManager.createFile(atPath: tree + "/" + name, contents: Data(Fixtures.bytes("pngsuite/" + name)))
            good.append(name)
        }
        for name in ["baseline.jpg", "progressive.jpg", "cmyk.jpg", "oriented.jpg"] {
            _ = Self.fileManager.createFile(atPath: tree + "/" + name, contents: Data(Fixtures.bytes("fuzz-seeds/" + name)))
            good.append(name)
        }
        let expected = try JSONSerialization.jsonObject(with: Data(Fixtures.bytes("hostile/expected.json"))) as! [String: String]
        var bad: Set<String> = []
        for (name, outcome) in expected {
            _ = Self.fileManager.createFile(atPath: tree + "/hostile/" + name, contents: Data(Fixtures.bytes("hostile/" + name)))
            // The 15000x15000 bomb streams at --scales 1,2 (both sizes from one pass over its rows).
            if outcome == "decodes" { good.append("hostile/" + name) } else { bad.insert("hostile/" + name) }
        }
        try Self.sparse(tree + "/good-then-4gib.png", prefix: Fixtures.bytes("hostile/good-rgb.png"), size: 4 << 30)
        good.append("good-then-4gib.png")
        try Self.sparse(tree + "/zeros-4gib.png", prefix: [], size: 4 << 30)
        bad.insert("zeros-4gib.png")

        let run = try BuiltBinary.run(["/usr/bin/prlimit", "--as=2147483648", BuiltBinary.path, tree,
                                            "-o", root + "/out", "--scales", "1,2", "-j2", "--progress", "never"],
                                           executable: "/usr/bin/prlimit", seconds: 300)
        #expect(!run.timedOut)
        #expect(run.status == 1, "\(run.err)")
        for name in good {
            let stem = (name as NSString).deletingPathExtension
            for suffix in ["", "@2x"] {
                #expect(Self.fileManager.fileExists(atPath: root + "/out/" + stem + suffix + ".png"), "\(name): \(run.err)")
            }
        }
        let lines = run.err.split(separator: "\n").filter { $0.hasPrefix("thumbgen: ") && !$0.hasPrefix("thumbgen: warning: ") }
        let failed = Set(lines.compactMap { line in bad.first { line.hasPrefix("thumbgen: " + tree + "/" + $0 + ": ") } })
        #expect(failed == bad, "\(run.err)")
        #expect(lines.count == bad.count, "\(run.err)")
        // Under the cap, the default budget cannot hold the bomb's 900 MB decoded image, which its
        // own width (`auto`) needs whole: refused from the header, one line.
        let whole = try BuiltBinary.run(["/usr/bin/prlimit", "--as=2147483648", BuiltBinary.path, tree + "/hostile/bomb-real-15000.png",
                                              "-o", root + "/whole", "--widths", "16,auto", "-j2", "--progress", "never"],
                                             executable: "/usr/bin/prlimit", seconds: 300)
        #expect(whole.status == 1 && !Self.fileManager.fileExists(atPath: root + "/whole/bomb-real-15000-16.png"))
        #expect(whole.err.hasPrefix("thumbgen: \(tree)/hostile/bomb-real-15000.png: image is 15000x15000 and needs")
                && whole.err.hasSuffix("(--max-memory)\n") && whole.err.split(separator: "\n").count == 1, "\(whole.err)")
    }
}
