import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI
import ThumbKit

/// `thumbgen check` tells the causes of a difference apart: a changed source, a library version,
/// the encoder's bytes, the pixels (measured); and works from the manifest and sources alone.
@Suite struct CheckDiagnosisTests {
    let fileManager = FileManager.default

    /// A source in `in/`, its 32-pixel thumbnail in `out/` with a manifest.
    func made(_ label: String) throws -> (work: String, output: String, manifest: String) {
        let work = Fixtures.temporaryDirectory(label)
        try fileManager.createDirectory(atPath: work + "/in", withIntermediateDirectories: true)
        try fileManager.copyItem(atPath: Fixtures.path("photos/cat-rgba8.png"), toPath: work + "/in/cat.png")
        let run = CLIRun([work + "/in", "-o", work + "/out", "--size", "32"])
        #expect(run.status == .success, "\(run.err)")
        return (work, work + "/out/cat.png", work + "/out/thumbgen-manifest.json")
    }

    /// The manifest with `old` replaced by `new` throughout.
    func edit(_ manifest: String, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: manifest, atomically: true, encoding: .utf8)
    }

    func entry(_ manifest: String) throws -> ManifestEntry { try Manifest.load(path: manifest).sortedEntries[0] }

    @Test func theManifestAndTheSourcesAreEnough() throws {
        let (_, output, manifest) = try made("check-manifest-only")
        try fileManager.removeItem(atPath: output)
        let check = CLIRun(["check", manifest, "-v"])
        #expect(check.status == .success, "\(check.err)")
        #expect(check.err == "\(output): ok (not on disk; regenerated)\n1 outputs checked, 0 differ\n")
    }

    @Test func aChangedSourceIsNamedAndNotRegenerated() throws {
        let (work, output, manifest) = try made("check-source")
        let recorded = try entry(manifest).sourceFingerprint.sha256
        try fileManager.removeItem(atPath: work + "/in/cat.png")
        try fileManager.copyItem(atPath: Fixtures.path("photos/cat-rgb16.png"), toPath: work + "/in/cat.png")
        let check = CLIRun(["check", manifest])
        #expect(check.status == .failure)
        #expect(check.err.hasPrefix("thumbgen: \(output): source changed since the manifest (SHA-256 \(recorded.prefix(12)), now "), "\(check.err)")
        #expect(check.err.hasSuffix("; not regenerated\n") && !check.err.contains("pixels differ"), "\(check.err)")
    }

    /// An older libpng wrote other bytes for the same pixels: the encoder's doing, named with the
    /// library whose version differs.
    @Test func encoderBytesAndLibraryVersions() throws {
        let (_, output, manifest) = try made("check-encoder")
        let recorded = try entry(manifest)
        let libpng = LibraryVersions.current.versions["libpng"]!
        try edit(manifest, "libpng \(libpng),", "libpng 1.0.0,")
        try edit(manifest, recorded.fileSHA256, String(repeating: "0", count: 64))
        // The file on disk is no longer the manifest's either; regenerating tells why.
        try fileManager.removeItem(atPath: output)
        let check = CLIRun(["check", manifest])
        #expect(check.status == .failure)
        #expect(check.err == "thumbgen: \(output): encoder's bytes differ, pixels equal (library version differs: libpng 1.0.0 → \(libpng))\n",
                "\(check.err)")
        // The same versions and the same bytes: only -v mentions the version.
        try edit(manifest, String(repeating: "0", count: 64), recorded.fileSHA256)
        let same = CLIRun(["check", manifest, "-v"])
        #expect(same.status == .success)
        #expect(same.err.contains("\(output): ok (not on disk; regenerated)") || same.err.contains("library version differs: libpng 1.0.0 → \(libpng)"))
    }

    /// The golden on disk came from another kernel: the pixels differ, measured; --tolerance,
    /// --diff, --json and --update.
    @Test func pixelsDifferMeasuredToleratedDiffedAndUpdated() throws {
        let (work, output, manifest) = try made("check-pixels")
        let other = CLIRun([work + "/in", "-o", work + "/other", "--size", "32", "--kernel", "box"])
        #expect(other.status == .success)
        let golden = try entry(work + "/other/thumbgen-manifest.json")
        let recorded = try entry(manifest)
        try fileManager.removeItem(atPath: output)
        try fileManager.copyItem(atPath: work + "/other/cat.png", toPath: output)
        try edit(manifest, recorded.fileSHA256, golden.fileSHA256)
        try edit(manifest, recorded.pixelSHA256, golden.pixelSHA256)

        let check = CLIRun(["check", manifest])
        #expect(check.status == .failure)
        let measured = try #require(check.err.firstMatch(of: /pixels differ: (\d+) pixels differ, maximum difference (\d+), PSNR ([0-9.]+) dB\n/), "\(check.err)")
        let (count, maximum) = (Int(measured.1)!, Int(measured.2)!)
        #expect(count > 0 && count <= 32 * 48 && maximum > 0 && Double(measured.3)! > 20)

        #expect(CLIRun(["check", manifest, "--tolerance", String(maximum - 1)]).status == .failure)
        let tolerated = CLIRun(["check", manifest, "--tolerance", String(maximum), "-v"])
        #expect(tolerated.status == .success)
        #expect(tolerated.err.hasPrefix("\(output): ok (within tolerance \(maximum): \(count) pixels differ"), "\(tolerated.err)")

        let diff = CLIRun(["check", manifest, "--diff", work + "/diff"])
        #expect(diff.err.contains("; diff image \(work)/diff/cat.diff.png\n"), "\(diff.err)")
        let diffImage = try ImageSource.file(work + "/diff/cat.diff.png").decode()
        #expect(diffImage.width == golden.width && diffImage.height == golden.height)
        let red = stride(from: 0, to: diffImage.rgba8.count, by: 4).filter { diffImage.rgba8[$0 + 1] == 0 && diffImage.rgba8[$0] >= 128 }.count
        #expect(red == count, "one red pixel for each that differs")

        let json = CLIRun(["check", manifest, "--json"])
        #expect(json.status == .failure && json.err.isEmpty)
        let report = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as! [String: Any]
        #expect(report["checked"] as? Int == 1 && report["differ"] as? Int == 1)
        let outputs = report["outputs"] as! [[String: Any]]
        let diagnoses = outputs[0]["diagnoses"] as! [[String: Any]]
        #expect(outputs[0]["status"] as? String == "differs" && diagnoses.contains { $0["kind"] as? String == "pixels-differ" })

        #expect(CLIRun(["check", manifest, "-q"]).err.isEmpty)
        let update = CLIRun(["check", manifest, "--update", "--summary"])
        #expect(update.status == .success, "\(update.err)")
        #expect(update.err.hasSuffix("; updated\n1 outputs checked, 1 differ, 1 updated\n"), "\(update.err)")
        #expect(try entry(manifest).pixelSHA256 == recorded.pixelSHA256)
        let rewritten = try ImageSource.file(output).decode()
        #expect(rewritten.pixelHash == recorded.pixelSHA256, "the output on disk is the regenerated one")
        #expect(CLIRun(["check", manifest]).status == .success)
    }
}
