import Glibc

/// The process's environment variables (what `--shard auto` reads a scheduler's slice from).
enum ProcessEnvironment {
    /// Every `NAME=value` of `environ` that is UTF-8, by name.
    static var variables: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            if let text = String(validatingCString: pointer), let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
