/// GNU-style command-line parsing: `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped
/// short flags (`-qv`), and `--` to end options. Unknown options and missing values are usage
/// errors that name the option.
struct ArgumentParser: Sendable {
    let options: [OptionSpec]

    init(_ options: [OptionSpec]) { self.options = options }

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let spec = options.first(where: { $0.long == name }) else {
                    throw UsageError("unknown option '--\(name)'")
                }
                if spec.takesValue {
                    if let inlineValue {
                        result.values[spec.long, default: []].append(inlineValue)
                    } else {
                        guard index < arguments.count else { throw UsageError("missing value for '--\(name)'") }
                        result.values[spec.long, default: []].append(arguments[index])
                        index += 1
                    }
                } else {
                    if inlineValue != nil { throw UsageError("'--\(name)' takes no value") }
                    result.flags[spec.long, default: 0] += 1
                }
            } else {
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let spec = options.first(where: { $0.short == letter }) else {
                        throw UsageError("unknown option '-\(letter)'")
                    }
                    if spec.takesValue {
                        if !letters.isEmpty {
                            result.values[spec.long, default: []].append(String(letters))
                        } else {
                            guard index < arguments.count else { throw UsageError("missing value for '-\(letter)'") }
                            result.values[spec.long, default: []].append(arguments[index])
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
