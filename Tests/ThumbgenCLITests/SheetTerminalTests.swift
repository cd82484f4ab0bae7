import Foundation
import Testing
import TestSupport

/// `thumbgen sheet` on a real terminal (tmux): a progress bar while cells are drawn, then the
/// summary, as the thumbnail command shows them; off a terminal, silence.
@Suite struct SheetTerminalTests {
    @Test func theSheetCommandShowsItsProgressBarOnATerminal() throws {
        let tmux = "/usr/bin/tmux"
        try #require(FileManager.default.isExecutableFile(atPath: tmux), "tmux is missing: make deps installs it")
        let root = Fixtures.temporaryDirectory("sheet-tty")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/in", withIntermediateDirectories: true)
        for index in 0..<6 {
            FileManager.default.createFile(atPath: root + "/in/p\(index).jpg", contents: Data(Fixtures.bytes("fuzz-seeds/baseline.jpg")))
        }
        // A tmux server of our own (a socket no other run uses), killed at the end.
        let socket = "thumbgen-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        // Spawned and reaped here, not through Foundation's Process: Process learns that its child
        // ended through a descriptor the child inherits, and the server tmux forks keeps that
        // open, so the wait would last as long as the server. Output goes to /dev/null.
        func tmuxRun(_ arguments: [String]) throws -> Int32 {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor: Int32 in [0, 1, 2] {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            let argv = ([tmux, "-L", socket] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid = pid_t()
            guard posix_spawn(&pid, tmux, &actions, nil, argv, environ) == 0 else { return -1 }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            return (status >> 8) & 0xFF
        }
        defer { _ = try? tmuxRun(["kill-server"]) }
        // The command waits for a line, so that the pane's output is recorded from its start.
        let command = "read go; '\(BuiltBinary.path)' sheet '\(root)/in' -o '\(root)/sheet.png' -j 2; echo \"exit $?\" > '\(root)/done'; sleep 30"
        #expect(try tmuxRun(["new-session", "-d", "-x", "100", "-y", "20", "sh", "-c", command]) == 0)
        #expect(try tmuxRun(["pipe-pane", "-o", "cat >> '\(root)/pane.log'"]) == 0)
        #expect(try tmuxRun(["send-keys", "Enter"]) == 0)
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: root + "/done") && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        Thread.sleep(forTimeInterval: 0.3)
        let done = String(decoding: FileManager.default.contents(atPath: root + "/done") ?? Data(), as: UTF8.self)
        #expect(done == "exit 0\n")
        let pane = String(decoding: FileManager.default.contents(atPath: root + "/pane.log") ?? Data(), as: UTF8.self)
        // The finished bar (all six cells), erased before the summary line.
        #expect(pane.contains("] 6/6 100%"), "\(pane.debugDescription)")
        #expect(pane.contains("\r\u{1B}[K6 photos on 1 page written to \(root)/sheet.png"), "\(pane.debugDescription)")
        // Off a terminal the same run prints nothing.
        let quiet = try BuiltBinary.run(["sheet", root + "/in", "-o", root + "/sheet2.png"])
        #expect(quiet.status == 0 && quiet.err.isEmpty, "\(quiet.err)")
    }
}
