import Foundation
import Testing
@testable import ThumbKit
import TestSupport

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesMatchOneShot() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        for split in [0, 1, 63, 64, 65, 500, 999, 1000] {
            var hasher = SHA256()
            hasher.update(Array(data[0..<split]))
            hasher.update(Array(data[split...]))
            #expect(hasher.finalize().hexString == SHA256.hex(data))
        }
    }
}

@Suite struct WorkerPoolTests {
    /// Results come back in the elements' order, for empty and short lists, batches that do not
    /// divide the list, more threads than batches, and one thread.
    @Test(arguments: [(0, 4, 1), (1, 2, 16), (63, 2, 16), (64, 2, 16), (65, 3, 16), (1_000, 2, 16), (1_000, 1, 16),
                      (1_000, 64, 16), (7, 3, 1), (100, 8, 1)])
    func mapKeepsOrder(_ count: Int, _ threads: Int, _ batchSize: Int) {
        let elements = Array(0..<count)
        let mapped = WorkerPool.map(elements, threads: threads, stackSize: WorkerPool.shallowStackSize, batchSize: batchSize) { $0 * 3 + 1 }
        #expect(mapped == elements.map { $0 * 3 + 1 })
    }

    /// With several threads asked for and enough slow items, more than one thread does some.
    @Test func mapUsesTheThreads() {
        let seen = EntryCounts()
        let results = WorkerPool.map(Array(0..<200), threads: 2, stackSize: WorkerPool.shallowStackSize, batchSize: 16) { (n: Int) -> Int in
            usleep(200)
            seen.append(Int(bitPattern: UInt(pthread_self())))
            return n
        }
        #expect(results == Array(0..<200))
        #expect(Set(seen.values).count == 2)
    }
}

@Suite struct AtomicFileTests {
    @Test func writesCompleteFilesAndLeavesNoTemporaries() throws {
        let directory = Fixtures.temporaryDirectory("atomic")
        let path = directory + "/a/b/out.png"
        try AtomicFile.write([1, 2, 3], to: path)
        try AtomicFile.write([4, 5], to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([4, 5]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/a/b") == ["out.png"])
    }

    @Test func destinationThatIsADirectory() throws {
        let directory = Fixtures.temporaryDirectory("atomic")
        try FileManager.default.createDirectory(atPath: directory + "/x.png", withIntermediateDirectories: false)
        #expect(throws: FileWriteError.destinationIsDirectory) { try AtomicFile.write([1], to: directory + "/x.png") }
    }

    @Test func unwritableDirectoryLeavesNothing() throws {
        guard getuid() != 0 else {
            // root ignores permissions; a file in the way of a directory fails the same way for everyone.
            let directory = Fixtures.temporaryDirectory("atomic")
            #expect(FileManager.default.createFile(atPath: directory + "/blocker", contents: Data([0])))
            #expect(throws: FileWriteError.self) { try AtomicFile.write([1], to: directory + "/blocker/out.png") }
            return
        }
        let directory = Fixtures.temporaryDirectory("atomic")
        chmod(directory, 0o500)
        defer { chmod(directory, 0o700) }
        #expect(throws: FileWriteError.self) { try AtomicFile.write([1], to: directory + "/out.png") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func stagedFilesLandOnlyWhenCommitted() throws {
        let directory = Fixtures.temporaryDirectory("atomic")
        let names = ["a.png", "b.png", "sub/c.png"]
        try AtomicFile.write([9], to: directory + "/a.png")
        let staged = try names.enumerated().map { index, name in
            try AtomicFile.stage([UInt8(index), 1, 2], to: directory + "/" + name)
        }
        // Staged: the old a.png is untouched, b.png does not exist yet.
        #expect(FileManager.default.contents(atPath: directory + "/a.png") == Data([9]))
        #expect(!FileManager.default.fileExists(atPath: directory + "/b.png"))
        #expect(staged.allSatisfy { FileManager.default.fileExists(atPath: $0.temporaryPath.description) })
        // Several files: synced together (syncfs), then renamed.
        #expect(AtomicFile.commit(staged, syncData: true).allSatisfy { $0 == nil })
        for (index, name) in names.enumerated() {
            #expect(FileManager.default.contents(atPath: directory + "/" + name) == Data([UInt8(index), 1, 2]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["a.png", "b.png", "sub"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/sub") == ["c.png"])
    }

    @Test func aFailedCommitNamesTheFileAndLeavesNoTemporary() throws {
        let directory = Fixtures.temporaryDirectory("atomic")
        let good = try AtomicFile.stage([1], to: directory + "/good.png")
        let bad = try AtomicFile.stage([2], to: directory + "/bad.png")
        // Something takes the destination's place between staging and committing.
        try FileManager.default.createDirectory(atPath: directory + "/bad.png/inside", withIntermediateDirectories: true)
        let errors = AtomicFile.commit([good, bad], syncData: true)
        #expect(errors[0] == nil)
        #expect(errors[1]?.message.hasPrefix("cannot rename to \(directory)/bad.png: ") == true, "\(String(describing: errors[1]))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["bad.png", "good.png"])

        let discarded = try AtomicFile.stage([3], to: directory + "/never.png")
        AtomicFile.discard(discarded)
        #expect(!FileManager.default.fileExists(atPath: discarded.temporaryPath.description))
        #expect(!FileManager.default.fileExists(atPath: directory + "/never.png"))
    }

    @Test func committerCompletesInSubmissionOrder() throws {
        let directory = Fixtures.temporaryDirectory("committer")
        let committer = OutputCommitter(syncData: true)
        let order = EntryCounts()
        for index in 0..<40 {
            let files = try (0..<(index % 3)).map { scale in
                try AtomicFile.stage([UInt8(index), UInt8(scale)], to: directory + "/\(index)@\(scale).png")
            }
            committer.submit(files) { error in
                // Each file of the submission is in place before its completion runs.
                let landed = (0..<(index % 3)).allSatisfy {
                    FileManager.default.contents(atPath: directory + "/\(index)@\($0).png") == Data([UInt8(index), UInt8($0)])
                }
                order.append(error == nil && landed ? index : -1)
            }
        }
        committer.finish()
        #expect(order.values == Array(0..<40))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == (0..<40).reduce(0) { $0 + $1 % 3 })
    }

    /// Submissions arriving while a flush is recent wait to be flushed together: one flush per
    /// `gatherSeconds` at most, not one per submission.
    @Test func committerGathersSubmissionsBetweenFlushes() throws {
        let directory = Fixtures.temporaryDirectory("committer-gather")
        let committer = OutputCommitter(syncData: true)
        let start = DispatchTime.now()
        for index in 0..<50 {
            committer.submit([try AtomicFile.stage([UInt8(index)], to: directory + "/\(index).png")]) { _ in }
            usleep(2000)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        committer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 50)
        #expect(committer.flushes <= Int(seconds / committer.gatherSeconds) + 2 && committer.flushes < 25,
                "\(committer.flushes) flushes in \(seconds) s")
    }

    /// Once `gatherFiles` files wait they are flushed without waiting out `gatherSeconds` (here
    /// far longer than the test may take), and before `finish()` is called.
    @Test func committerFlushesOnceEnoughFilesWait() throws {
        let directory = Fixtures.temporaryDirectory("committer-count")
        let committer = OutputCommitter(syncData: true, gatherSeconds: 600, gatherFiles: 4)
        let landed = DispatchSemaphore(value: 0)
        // The first submission is flushed at once (there is no flush to gather behind); the next
        // four make a group that only their number can release.
        for index in 0..<5 {
            committer.submit([try AtomicFile.stage([UInt8(index)], to: directory + "/\(index).png")]) { error in
                if (index == 0 || index == 4) && error == nil { landed.signal() }
            }
            if index == 0 { #expect(landed.wait(timeout: .now() + 30) == .success) }
        }
        #expect(landed.wait(timeout: .now() + 30) == .success)
        committer.finish()
        #expect(committer.flushes == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 5)
    }

    /// A temporary of a process that is gone is removed; one of a process still running (this
    /// one: another shard writing into the same tree) is kept.
    @Test func staleTemporariesAreRemoved() throws {
        let directory = Fixtures.temporaryDirectory("atomic")
        // 999999999 is past any pid_max, so no process has it.
        #expect(FileManager.default.createFile(atPath: directory + "/.out.png\(AtomicFile.temporaryMarker)999999999-1", contents: Data([0])))
        let live = AtomicFile.temporaryMarker + "\(ProcessInfo.processInfo.processIdentifier)-1"
        #expect(FileManager.default.createFile(atPath: directory + "/" + live, contents: Data([0])))
        #expect(FileManager.default.createFile(atPath: directory + "/keep.png", contents: Data([0])))
        #expect(AtomicFile.removeStaleTemporaries(in: directory) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [live, "keep.png"])
    }
}

@Suite struct ColorParsingTests {
    @Test func colourParsing() throws {
        #expect(try Color(hex: "ff8000") == Color(red: 255, green: 128, blue: 0))
        #expect(try Color(hex: "#FF800080") == Color(red: 255, green: 128, blue: 0, alpha: 128))
        for bad in ["", "fff", "ff80001", "gg0000", "ff 000", "+f0000", "ff8000800"] {
            #expect(throws: ColorParseError.self) { _ = try Color(hex: bad) }
        }
        #expect(Color(red: 1, green: 2, blue: 255, alpha: 16).description == "0102ff10")
    }
}
