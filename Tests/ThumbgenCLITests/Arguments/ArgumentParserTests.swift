import Testing
@testable import ThumbgenCLI

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser([
        OptionSpec("output", short: "o", value: "DIR", help: ""),
        OptionSpec("jobs", short: "j", value: "N", help: ""),
        OptionSpec("quiet", short: "q", help: ""),
        OptionSpec("verbose", short: "v", help: ""),
    ])

    @Test func longOptionsWithSpaceOrEquals() throws {
        let parsed = try parser.parse(["--output", "a", "x.png", "--output=b", "--jobs=3"])
        #expect(parsed.values["output"] == ["a", "b"])
        #expect(parsed.value("output") == "b")
        #expect(parsed.value("jobs") == "3")
        #expect(parsed.positionals == ["x.png"])
    }

    @Test func shortOptionsAttachedSeparateAndGrouped() throws {
        let parsed = try parser.parse(["-j4", "-o", "dir", "-qv", "-vj", "2", "in"])
        #expect(parsed.values["jobs"] == ["4", "2"])
        #expect(parsed.value("output") == "dir")
        #expect(parsed.flags["quiet"] == 1 && parsed.flags["verbose"] == 2)
        #expect(parsed.positionals == ["in"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parser.parse(["-q", "--", "--output", "-v", "-"])
        #expect(parsed.positionals == ["--output", "-v", "-"])
        #expect(parsed.has("quiet") && !parsed.has("verbose"))
    }

    @Test func equalsSignInValueIsKept() throws {
        #expect(try parser.parse(["--output=a=b"]).value("output") == "a=b")
        #expect(try parser.parse(["--output="]).value("output") == "")
    }

    @Test func errorsNameTheOption() {
        #expect(throws: UsageError("unknown option '--frobnicate'")) { try parser.parse(["--frobnicate"]) }
        #expect(throws: UsageError("unknown option '-x'")) { try parser.parse(["-qx"]) }
        #expect(throws: UsageError("missing value for '--output'")) { try parser.parse(["--output"]) }
        #expect(throws: UsageError("missing value for '-j'")) { try parser.parse(["-j"]) }
        #expect(throws: UsageError("'--quiet' takes no value")) { try parser.parse(["--quiet=yes"]) }
    }

    @Test func valueConversionErrorsNameTheOption() throws {
        let parsed = try parser.parse(["--jobs", "many"])
        #expect(throws: UsageError("invalid value 'many' for --jobs: expected a positive number")) {
            _ = try parsed.value("jobs", default: 1, expected: "a positive number") { Int($0) }
        }
        #expect(try parser.parse([]).value("jobs", default: 7, expected: "") { Int($0) } == 7)
    }

    @Test func helpLayout() {
        let text = HelpText(overview: "Do a thing.", usage: ["tool [options] X"], arguments: [("X", "The thing.")],
                            options: [OptionSpec("output", short: "o", value: "DIR", help: "Where.")]).render()
        #expect(text == """
        OVERVIEW: Do a thing.

        USAGE: tool [options] X

        ARGUMENTS:
          X                         The thing.

        OPTIONS:
          -o, --output <DIR>        Where.
          -h, --help                Show help information.

        """)
    }
}
