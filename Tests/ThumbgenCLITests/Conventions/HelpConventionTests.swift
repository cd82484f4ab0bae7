import Foundation
import Testing
@testable import ThumbgenCLI
import TestSupport

/// `-V`, `thumbgen help [COMMAND]`, and what every `--help` holds: EXAMPLES, and in the default
/// command's, one line per command.
@Suite struct HelpConventionTests {
    @Test func shortVersionIsTheVersion() {
        let long = CLIRun(["--version"]), short = CLIRun(["-V"])
        #expect(short.status == .success && short.out == long.out && short.out.hasPrefix("thumbgen "))
        #expect(CLIRun(["info", "-V"]).out == long.out)
    }

    @Test(arguments: ThumbgenMain.commands.map(\.name))
    func helpCommandIsTheCommandsHelp(_ name: String) {
        let words = name.isEmpty ? [] : [name]
        let viaHelp = CLIRun(["help"] + words)
        #expect(viaHelp.status == .success && viaHelp.err.isEmpty)
        #expect(viaHelp.out == CLIRun(words + ["--help"]).out)
        // Every command's help ends with examples that run that command.
        let examples = viaHelp.out.components(separatedBy: "\nEXAMPLES:\n")
        #expect(examples.count == 2, "\(name): no EXAMPLES section")
        let commandLines = examples.last!.split(separator: "\n").filter { !$0.hasPrefix("      ") }
        #expect(!commandLines.isEmpty && commandLines.allSatisfy { $0.hasPrefix("  thumbgen \(name)") })
    }

    @Test func helpOfAnUnknownCommandIsAUsageError() {
        let run = CLIRun(["help", "nosuch"])
        #expect(run.status == .usage && run.out.isEmpty)
        #expect(run.err.hasPrefix("thumbgen: unknown command 'nosuch' (commands: build, info, check"), "\(run.err)")
        #expect(CLIRun(["help", "info", "check"]).status == .usage)
    }

    @Test func defaultHelpListsEveryCommandOnOneLine() {
        let help = CLIRun(["--help"]).out
        let section = help.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
        let rows = section.split(separator: "\n").map(String.init)
        let named = ThumbgenMain.commands.filter { !$0.name.isEmpty }
        #expect(rows.count == named.count + 1)
        for (row, command) in zip(rows, named) {
            #expect(row.hasPrefix("  \(command.name) ") && row.hasSuffix(command.summary), "\(row)")
        }
        // The memory formula is the man page's now, not ten lines of --help.
        #expect(!help.contains("Memory per job") && help.contains("see thumbgen(1)"))
    }
}
