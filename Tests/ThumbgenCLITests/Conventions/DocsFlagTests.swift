import Foundation
import Testing
@testable import ThumbgenCLI
import TestSupport

/// Every `--flag` the user docs put after `thumbgen` on a line is one thumbgen accepts (an option
/// of some command's table, or a generator), so the docs cannot name a flag that does not exist.
@Suite struct DocsFlagTests {
    static let accepted: Set<String> = Set(ThumbgenMain.commands.flatMap { $0.help.options.map(\.long) })
        .union(["help", "version", "generate-man", "generate-completion"])

    @Test(arguments: ["docs/command-line.md", "docs/scale-out.md"])
    func everyFlagAfterThumbgenIsAccepted(_ page: String) throws {
        let text = try String(contentsOf: Fixtures.repository.appendingPathComponent(page), encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n") {
            guard let start = line.range(of: "thumbgen ") else { continue }
            let rest = line[start.upperBound...]
            for match in rest.matches(of: /(?:^|[\s`(\[])--([a-z][a-z0-9-]*)/) {
                let flag = String(match.1)
                #expect(Self.accepted.contains(flag), "\(page): --\(flag) in: \(line)")
                checked += 1
            }
        }
        #expect(checked > 5)
    }
}
