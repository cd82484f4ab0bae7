import Foundation
import Testing

/// Bad HEIC and AVIF files in a batch, through the built binary: each is one line naming the
/// file and the reason, nothing else reaches standard error (libheif and its decoders print
/// nothing), and the good files are still written.
@Suite struct HEIFBatchTests {
    @Test func badFilesAreOneLineEachAndTheOthersAreWritten() throws {
        let root = CLIFixtures.temporaryDirectory("heif-batch")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tree = root + "/in", out = root + "/out"
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        func fixture(_ name: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: CLIFixtures.path("heif/" + name))!) }
        func write(_ name: String, _ bytes: [UInt8]) { FileManager.default.createFile(atPath: tree + "/" + name, contents: Data(bytes)) }
        write("good.heic", fixture("opaque.heic"))
        write("good-avif.avif", fixture("alpha.avif"))
        let heic = fixture("opaque.heic")
        write("cut.heic", Array(heic.prefix(heic.count / 2)))
        // The coded AV1 data overwritten: libaom's error, not dav1d's message on standard error.
        var avif = fixture("opaque.avif")
        let mdat = (0..<avif.count - 4).first { Array(avif[$0..<$0 + 4]) == Array("mdat".utf8) }!
        for i in mdat + 4..<mdat + 40 { avif[i] = 0xFF }
        write("garbled.avif", avif)
        write("no-meta.heic", [0, 0, 0, 0x14] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1".utf8)
            + [0, 0, 0, 0x10] + Array("free".utf8) + Array(repeating: 0, count: 8))

        let run = try CLIFixtures.runBinary([tree, "-o", out, "--size", "16", "--progress", "never"])
        #expect(run.status == 1)
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.sorted() == [
            "thumbgen: \(tree)/cut.heic: file is truncated",
            "thumbgen: \(tree)/garbled.avif: corrupt HEIF: invalid input: Unspecified: Corrupt frame detected",
            "thumbgen: \(tree)/no-meta.heic: corrupt HEIF: invalid input: No 'meta' box",
        ], "\(run.err)")
        for name in ["good.png", "good-avif.png"] { #expect(FileManager.default.fileExists(atPath: out + "/" + name), "\(name)") }
        for name in ["cut.png", "garbled.png", "no-meta.png"] { #expect(!FileManager.default.fileExists(atPath: out + "/" + name), "\(name)") }
    }
}
