import Foundation
import Glibc
import Testing
@testable import ThumbgenCLI
import ThumbKit
import TestSupport

/// The rule of silence: a build step that runs thumbgen once per file hears nothing when all is
/// well, and exactly one line, `thumbgen: FILE: reason`, per file that failed. (Captured output
/// is never a terminal, so these runs are what a Makefile or CI log sees.)
@Suite struct QuietSuccessTests {
    let fileManager = FileManager.default
    static let good = Fixtures.path("pngsuite/basn2c08.png")

    @Test func successPrintsNothingWhenStandardErrorIsNotATerminal() {
        let out = Fixtures.temporaryDirectory("quiet")
        let run = CLIRun([Self.good, "-o", out])
        #expect(run.status == .success)
        #expect(run.err.isEmpty && run.out.isEmpty, "\(run.err)")
        #expect(fileManager.fileExists(atPath: out + "/basn2c08.png"))
        // The real binary, standard error a pipe, says nothing either.
        let binary = try? BuiltBinary.run([Self.good, "-o", out, "--force"])
        #expect(binary?.status == 0 && binary?.err == "" && binary?.out == "")
    }

    @Test func summaryAndVerboseAskForTheSummaryLine() {
        let out = Fixtures.temporaryDirectory("quiet-summary")
        let summary = CLIRun([Self.good, "-o", out, "--summary"])
        #expect(summary.status == .success)
        let lines = summary.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(summary.err)")
        #expect(summary.err.hasPrefix("1 written, 0 up to date, 0 skipped, 0 failed in "), "\(summary.err)")
        let verbose = CLIRun([Self.good, "-o", out, "-v"])
        #expect(verbose.err.hasPrefix("up to date: \(Self.good)\n0 written, 1 up to date, 0 skipped, 0 failed in "), "\(verbose.err)")
        // -q keeps a terminal quiet, but an explicit --summary is still honoured.
        #expect(CLIRun([Self.good, "-o", out, "-q", "--summary"]).err.hasPrefix("0 written, 1 up to date"))
        #expect(CLIRun(["--help"]).out.contains("--summary"))
    }

    @Test func aFailingFileIsExactlyOneLineAndLeavesNothingBehind() throws {
        let dir = Fixtures.temporaryDirectory("quiet-fail")
        #expect(fileManager.createFile(atPath: dir + "/bad.png", contents: Data("not a png".utf8)))
        let run = CLIRun([dir + "/bad.png", "-o", dir + "/out"])
        #expect(run.status == .failure)
        #expect(run.err == "thumbgen: \(dir)/bad.png: not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW)\n")
        #expect(run.out.isEmpty)
        // No partial output: no thumbnail, no manifest, not even the output folder.
        #expect(!fileManager.fileExists(atPath: dir + "/out"))
        // Asked for, the summary follows the failure line.
        let asked = CLIRun([dir + "/bad.png", "-o", dir + "/out", "--summary"])
        #expect(asked.err.split(separator: "\n").count == 2 && asked.err.contains("\n0 written, 0 up to date, 0 skipped, 1 failed in "))
    }

    @Test func checkAndStarsAreQuietOnSuccessToo() throws {
        let out = Fixtures.temporaryDirectory("quiet-check")
        #expect(CLIRun([Self.good, "-o", out]).status == .success)
        let check = CLIRun(["check", out])
        #expect(check.status == .success && check.err.isEmpty, "\(check.err)")
        #expect(CLIRun(["check", out, "--summary"]).err == "1 outputs checked, 0 differ\n")
        try fileManager.removeItem(atPath: out + "/basn2c08.png")
        // The manifest and the source are enough.
        let missing = CLIRun(["check", out])
        #expect(missing.status == .success && missing.err.isEmpty, "\(missing.err)")

        let stars = Fixtures.temporaryDirectory("quiet-stars")
        let quiet = CLIRun(["stars", "-o", stars])
        #expect(quiet.status == .success && quiet.err.isEmpty && quiet.out.isEmpty, "\(quiet.err)")
        #expect(CLIRun(["stars", "-o", stars, "--summary"]).err == "5 badges written to \(stars)\n")
    }

    // MARK: Odd names

    /// Names that could break a line or the terminal, or that no `String` can hold, with how
    /// they must be printed.
    static let oddNames: [(label: String, name: [UInt8], escaped: String)] = [
        ("newline", Array("new\nline.png".utf8), "new\\nline.png"),
        ("control byte", Array("esc\u{1B}[31m.png".utf8), "esc\\x1B[31m.png"),
        ("invalid UTF-8", Array("bad".utf8) + [0xFF, 0xC3] + Array(".png".utf8), "bad\\xFF\\xC3.png"),
        ("255-byte component", Array(String(repeating: "n", count: 251).utf8) + Array(".png".utf8),
         String(repeating: "n", count: 251) + ".png"),
    ]

    @Test(arguments: oddNames.indices)
    func aFailingFileWithAnOddNameIsOneEscapedLine(_ index: Int) throws {
        let (label, name, escaped) = Self.oddNames[index]
        let dir = Fixtures.temporaryDirectory("odd-fail")
        let path = Array(dir.utf8) + [0x2F] + name
        RawName.write(Array("not a png".utf8), at: path)
        // Named on the command line (as bytes) and found by walking its folder: the same one line.
        let named = CLIRun(raw: [path, Array("-o".utf8), Array((dir + "/out").utf8)])
        let walked = CLIRun(raw: [Array(dir.utf8), Array("-o".utf8), Array((dir + "/out").utf8)])
        let expected = "thumbgen: \(dir)/\(escaped): not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW)\n"
        #expect(named.status == .failure && walked.status == .failure, "\(label)")
        #expect(named.err == expected, "\(label): \(named.err)")
        #expect(walked.err == expected, "\(label): \(walked.err)")
        // `info` and `check` name it the same way.
        let info = CLIRun(raw: [Array("info".utf8), path]).err
        #expect(info.hasPrefix("thumbgen: \(dir)/\(escaped): ") && info.split(separator: "\n").count == 1, "\(label): \(info)")
    }

    @Test func aWarningAboutAnOddNameIsOneLine() throws {
        let dir = Fixtures.temporaryDirectory("odd-warn")
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("fuzz-seeds/baseline.jpg"))))
        let path = Array(dir.utf8) + Array("/cut\n".utf8) + [0xFE] + Array(".jpg".utf8)
        RawName.write(Array(whole.prefix(whole.count * 2 / 3)), at: path)
        let run = CLIRun(raw: [path, Array("-o".utf8), Array((dir + "/out").utf8), Array("--allow-partial".utf8), Array("-v".utf8)])
        #expect(run.status == .success, "\(run.err)")
        // Each warning is one line naming the file; then the -v line and the summary.
        let lines = run.err.split(separator: "\n").map(String.init)
        let warnings = lines.filter { $0.hasPrefix("thumbgen: warning: ") }
        #expect(!warnings.isEmpty && warnings.allSatisfy { $0.hasPrefix("thumbgen: warning: \(dir)/cut\\n\\xFE.jpg: ") }, "\(run.err)")
        #expect(lines.count == warnings.count + 2, "\(run.err)")
        #expect(lines.dropLast().last == "written: \(dir)/cut\\n\\xFE.jpg")
    }

    // MARK: Valid images under odd names

    /// Reads a file by its bytes (no `String` path can name some of these).
    func contents(_ path: [UInt8]) -> [UInt8]? {
        let fd = open(RawName.cPath(path), O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return bytes }
            bytes += buffer[0..<n]
        }
    }

    /// (source name, output name, how the manifest spells the output).
    static let validOddNames: [(source: [UInt8], output: [UInt8], manifest: String)] = {
        // The longest stem kept whole: 243 bytes, room left for the longest ending, @0.125x.webp.
        let long251 = String(repeating: "l", count: 243)                 // 247 bytes with .png
        let long255 = String(repeating: "é", count: 125) + "x"           // 251-byte stem, 255 with .png
        var hasher = SHA256()
        hasher.update(Array(long255.utf8))
        // Cut at a character boundary at most 234 bytes in (117 é), then ~ and 8 hex digits.
        let shortened = String(repeating: "é", count: 117) + "~" + String(hasher.finalize().hexString.prefix(8)) + ".png"
        return [
            (Array((long251 + ".png").utf8), Array((long251 + ".png").utf8), long251 + ".png"),
            (Array((long255 + ".png").utf8), Array(shortened.utf8), shortened),
            (Array("caf".utf8) + [0xE9] + Array(".png".utf8), Array("caf".utf8) + [0xE9] + Array(".png".utf8), "caf\\\\xE9.png"),
        ]
    }()

    @Test(arguments: validOddNames.indices)
    func validImagesUnderOddNamesAreThumbnailed(_ index: Int) throws {
        let (sourceName, outputName, inManifest) = Self.validOddNames[index]
        let dir = Fixtures.temporaryDirectory("odd-valid")
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.good)))
        let source = Array(dir.utf8) + Array("/in/".utf8) + sourceName
        try fileManager.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        RawName.write(png, at: source)
        let out = Array((dir + "/out").utf8)
        // A box small enough that @3x needs no more pixels than the 32-pixel image has (else a
        // warning says it was enlarged).
        let size = [Array("--size".utf8), Array("8".utf8)]
        for arguments in [[Array((dir + "/in").utf8), Array("-o".utf8), out, Array("--scales".utf8), Array("1,3".utf8)] + size,
                          [source, Array("-o".utf8), out + Array("-named".utf8), Array("--scales".utf8), Array("1,3".utf8)] + size] {
            let run = CLIRun(raw: arguments)
            #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        }
        for folder in [out, out + Array("-named".utf8)] {
            let written = try #require(contents(folder + [0x2F] + outputName), "no output for name \(index)")
            #expect(try PNGDecoder.decode(bytes: written).width == 8)
            #expect(outputName.count <= 255)
            let manifest = String(decoding: contents(folder + Array("/thumbgen-manifest.json".utf8)) ?? [], as: UTF8.self)
            #expect(manifest.contains("\"output\": \"\(inManifest)\""), "\(manifest)")
            #expect(try fileManager.contentsOfDirectory(atPath: String(decoding: folder, as: UTF8.self))
                .allSatisfy { !$0.contains(AtomicFile.temporaryMarker) })
        }
        // The manifest maps back to the exact bytes: a second run is up to date, and check passes.
        let again = CLIRun(raw: [Array((dir + "/in").utf8), Array("-o".utf8), out, Array("--scales".utf8), Array("1,3".utf8), Array("--summary".utf8)] + size)
        #expect(again.err.hasPrefix("0 written, 1 up to date, 0 skipped, 0 failed"), "\(again.err)")
        let check = CLIRun(["check", dir + "/out", dir + "/out-named", "--summary"])
        #expect(check.status == .success && check.err == "4 outputs checked, 0 differ\n", "\(check.err)")
    }

    // MARK: info

    @Test func infoDecodesTheWholeImageUnlessHeaderOnly() {
        let corrupt = Fixtures.path("pngsuite/xcsn0g01.png")
        let full = CLIRun(["info", corrupt])
        #expect(full.status == .failure)
        #expect(full.out.isEmpty)
        #expect(full.err.hasPrefix("thumbgen: \(corrupt): ") && full.err.split(separator: "\n").count == 1, "\(full.err)")
        let header = CLIRun(["info", "--header-only", corrupt])
        #expect(header.status == .success, "\(header.err)")
        #expect(header.out == "\(corrupt): 32x32, gray, 1-bit, not interlaced, opaque\n")
        #expect(CLIRun(["info", "--help"]).out.contains("--header-only"))
    }
}
