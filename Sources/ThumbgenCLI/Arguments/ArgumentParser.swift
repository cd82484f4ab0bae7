import ThumbKit

/// GNU-style command-line parsing: `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped
/// short flags (`-qv`), and `--` to end options. Unknown options and missing values are usage
/// errors that name the option.
///
/// Arguments are matched as text, but file names are kept as the bytes the process was given
/// (`raw`): a name that is not UTF-8 has no `String` that opens it.
struct ArgumentParser: Sendable {
    let options: [OptionSpec]

    init(_ options: [OptionSpec]) { self.options = options }

    /// `raw` holds each argument's bytes (one per argument); nil takes them from the text.
    func parse(_ arguments: [String], raw: [[UInt8]]? = nil) throws(UsageError) -> ParsedArguments {
        let raw = raw ?? arguments.map { Array($0.utf8) }
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        /// The value's bytes: the end of argument `at` after its first `dropping` bytes (the
        /// option letters and names before a value are ASCII, so they are one byte each).
        func store(_ spec: OptionSpec, _ value: String, from at: Int, dropping: Int) {
            result.values[spec.long, default: []].append(value)
            result.valuePaths[spec.long, default: []].append(FilePath(Array(raw[at].dropFirst(dropping))))
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                result.positionalPaths.append(FilePath(raw[index - 1]))
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let spec = options.first(where: { $0.long == name }) else {
                    throw UsageError("unknown option '--\(PathEscaping.singleLine(name))'")
                }
                if spec.takesValue {
                    if let inlineValue {
                        store(spec, inlineValue, from: index - 1, dropping: 3 + name.utf8.count)
                    } else {
                        guard index < arguments.count else { throw UsageError("missing value for '--\(name)'") }
                        store(spec, arguments[index], from: index, dropping: 0)
                        index += 1
                    }
                } else {
                    if inlineValue != nil { throw UsageError("'--\(name)' takes no value") }
                    result.flags[spec.long, default: 0] += 1
                }
            } else {
                var letters = Substring(argument.dropFirst())
                var consumed = 1
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    consumed += 1
                    guard let spec = options.first(where: { $0.short == letter }) else {
                        throw UsageError("unknown option '-\(PathEscaping.singleLine(String(letter)))'")
                    }
                    if spec.takesValue {
                        if !letters.isEmpty {
                            store(spec, String(letters), from: index - 1, dropping: consumed)
                        } else {
                            guard index < arguments.count else { throw UsageError("missing value for '-\(letter)'") }
                            store(spec, arguments[index], from: index, dropping: 0)
                            index += 1
                        }
                        break
                    }
                    result.flags[spec.long, default: 0] += 1
                }
            }
        }
        return result
    }
}
