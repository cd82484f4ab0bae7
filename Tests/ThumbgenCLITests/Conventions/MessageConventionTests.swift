import Foundation
import Glibc
import Testing
@testable import ThumbgenCLI
import TestSupport

/// The fixes of the conventions issue: each skipped file listed once under -v, XMP sidecars not
/// counted as skipped images, a run that finds no image saying so, the progress bar gone after
/// Ctrl-C.
@Suite struct MessageConventionTests {
    static func folder(_ label: String) throws -> String {
        let dir = Fixtures.temporaryDirectory(label)
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        for name in ["sidecar-both.jpg", "sidecar-both.jpg.xmp", "sidecar-both.xmp", "sidecar-stem.jpg", "sidecar-stem.xmp"] {
            try FileManager.default.copyItem(atPath: Fixtures.path("ratings/" + name), toPath: dir + "/in/" + name)
        }
        FileManager.default.createFile(atPath: dir + "/in/notes.txt", contents: Data("hi".utf8))
        FileManager.default.createFile(atPath: dir + "/in/UPPER.XMP", contents: Data("<x/>".utf8))
        return dir
    }

    @Test func verboseListsEachSkippedFileOnceAndSidecarsAreNotImages() throws {
        let dir = try Self.folder("conventions-skip")
        let run = CLIRun([dir + "/in", "-o", dir + "/out", "-v"])
        #expect(run.status == .success)
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("notes.txt") } == ["skipped: \(dir)/in/notes.txt: not an image"])
        #expect(!run.err.lowercased().contains(".xmp"), "\(run.err)")
        #expect(lines.last!.hasPrefix("2 written, 0 up to date, 1 skipped, 0 failed in "), "\(run.err)")
        // The sidecars still give the photos their ratings (they are read, just not counted).
        #expect(CLIRun(["info", dir + "/in/sidecar-stem.jpg"]).out.contains("(sidecar)"))
    }

    @Test func aRunThatFindsNoImageSaysSoAndSucceeds() throws {
        let dir = Fixtures.temporaryDirectory("conventions-empty")
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: dir + "/empty/readme.txt", contents: Data("hi".utf8))
        let run = try BuiltBinary.run([dir + "/empty", "-o", dir + "/out"])
        #expect(run.status == 0 && run.err == "thumbgen: no images found in \(dir)/empty\n", "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
        #expect(try BuiltBinary.run([dir + "/empty", "-o", dir + "/out", "-q"]).err.isEmpty)
        // A run with images says nothing of the kind.
        let some = try BuiltBinary.run([Fixtures.path("pngsuite/basn2c08.png"), "-o", dir + "/out"])
        #expect(some.status == 0 && some.err.isEmpty)
    }

    /// Ctrl-C on a run with a progress bar: the last thing on standard error is the erasure of
    /// the bar, not the bar (what a terminal would leave on screen).
    @Test func theProgressBarIsErasedOnInterrupt() throws {
        let tree = Fixtures.temporaryDirectory("conventions-bar")
        let photos = Fixtures.path("../../Assets/samples/photos")
        for i in 0..<4 {
            for name in try FileManager.default.contentsOfDirectory(atPath: photos) {
                try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: tree + "/\(i)-" + name)
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = [tree, "-o", Fixtures.temporaryDirectory("conventions-bar-out"), "-j1", "--progress", "always", "--size", "200"]
        let err = Pipe()
        process.standardError = err
        var signals = sigset_t(), previous = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            try process.run()
        }
        var text = ""
        while !text.contains("img/s") {
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGINT)
        text += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let lastErase = try #require(text.range(of: "\r\u{1B}[K", options: .backwards))
        let lastBar = try #require(text.range(of: "%", options: .backwards))
        #expect(lastBar.upperBound < lastErase.lowerBound, "the bar was drawn after it was erased: \(text.suffix(200).debugDescription)")
        #expect(text[lastErase.upperBound...].allSatisfy { $0 != "\r" && $0 != "#" })
    }
}
