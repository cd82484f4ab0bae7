import Foundation
import Testing
@testable import ThumbgenCLI
import TestSupport

/// The shell completions `make install` puts in place, made by the built binary from the option
/// tables, loaded by the shells themselves: bash's `_thumbgen` is called as bash calls it
/// (COMP_WORDS, COMP_CWORD), for every option of every command.
@Suite struct CompletionTests {
    static func script(_ shell: String) -> String {
        let folder = Fixtures.temporaryDirectory("completion")
        let run = try? BuiltBinary.run(["--generate-completion", shell])
        precondition(run?.status == 0, "thumbgen --generate-completion \(shell) failed: \(run?.err ?? "")")
        let path = folder + "/thumbgen.\(shell)"
        FileManager.default.createFile(atPath: path, contents: Data(run!.out.utf8))
        return path
    }

    static let bash = script("bash")

    /// What `_thumbgen` offers for the words, the cursor on the last one.
    static func complete(_ words: [String], in folder: String? = nil) throws -> [String] {
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = (folder.map { "cd '\($0)' && " } ?? "")
            + "source '\(bash)' && COMP_WORDS=(thumbgen \(quoted)) && COMP_CWORD=\(words.count) && _thumbgen && printf '%s\\n' \"${COMPREPLY[@]}\""
        let run = try BuiltBinary.run(["/bin/bash", "--norc", "-c", program], executable: "/bin/bash")
        #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
        return run.out.split(separator: "\n").map(String.init).sorted()
    }

    @Test(arguments: ThumbgenMain.commands.map(\.name))
    func bashCompletesEveryOptionOfTheCommand(_ name: String) throws {
        let command = ThumbgenMain.commands.first { $0.name == name }!
        let words = name.isEmpty ? [] : [name]
        let offered = try Self.complete(words + ["--"])
        let expected = (command.help.options + [HelpText.helpOption]).map { "--" + $0.long }.sorted()
        #expect(offered == expected)
        // An option's choices are offered for its value.
        for option in command.help.options where !option.choices.isEmpty {
            #expect(try Self.complete(words + ["--" + option.long, ""]) == option.choices.sorted())
        }
    }

    @Test func bashCompletesCommandsFoldersAndFiles() throws {
        let folder = Fixtures.temporaryDirectory("completion-files")
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder + "/photo.jpg", contents: Data())
        FileManager.default.createFile(atPath: folder + "/info.txt", contents: Data())
        #expect(try Self.complete(["i"], in: folder) == ["icons", "info", "info.txt"])
        #expect(try Self.complete(["-o", "p"], in: folder) == ["photos"])
        #expect(try Self.complete(["info", "p"], in: folder) == ["photo.jpg", "photos"])
        #expect(try Self.complete(["help", "s"], in: folder) == ["sheet", "stars"])
        #expect(try Self.complete(["--fit", "c"]) == ["contain", "cover"])
        #expect(try Self.complete(["--size", "1"]) == [])
    }

    @Test(arguments: [("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")])
    func theOtherShellsParseTheirScripts(_ shell: String, _ executable: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: executable), "\(executable) missing: make deps installs it")
        let path = Self.script(shell)
        let run = try BuiltBinary.run([executable, "-n", path], executable: executable)
        #expect(run.status == 0 && run.err.isEmpty, "\(shell): \(run.err)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for command in ThumbgenMain.commands {
            for option in command.help.options { #expect(text.contains(shell == "fish" ? "-l \(option.long) " : "'--\(option.long)'")) }
        }
    }

    @Test func fishLoadsTheCompletionsAndOffersThem() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"))
        let path = Self.script("fish")
        let run = try BuiltBinary.run(["/usr/bin/fish", "--no-config", "-c", "source '\(path)'; complete -C 'thumbgen info --hea'"],
                                      executable: "/usr/bin/fish")
        #expect(run.out.hasPrefix("--header-only\t"), "\(run.out) \(run.err)")
    }
}
