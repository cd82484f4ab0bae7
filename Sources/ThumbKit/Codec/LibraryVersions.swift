/// The library versions a settings description records, by library name: what `thumbgen check`
/// compares to tell "a library version differs" from other causes.
///
/// Read from the `libraries` field (`CodecVersions.field`) and, for descriptions written before it,
/// from the `codec`, `jpeg` and `webp` fields that named some of them. Each item is "name version",
/// items separated by ", " (a version may hold spaces and parentheses: "libjpeg-turbo 2.1.5 (API 62)").
package struct LibraryVersions: Equatable, Sendable {
    /// Version by library name.
    package let versions: [String: String]

    /// One library whose recorded version is not the current one; nil stands for "not recorded".
    package struct Change: Equatable, Sendable {
        package let library: String
        package let recorded: String?
        package let current: String?
        /// e.g. "libwebp 1.2.4 → 1.3.0".
        package var description: String { "\(library) \(recorded ?? "(not recorded)") → \(current ?? "(not used)")" }
    }

    /// The versions this build of thumbgen uses.
    package static let current = LibraryVersions(items: CodecVersions.all)

    package init(items: [String]) {
        var versions: [String: String] = [:]
        for item in items {
            guard let space = item.firstIndex(of: " ") else { continue }
            versions[String(item[..<space])] = String(item[item.index(after: space)...])
        }
        self.versions = versions
    }

    /// The versions in a settings description's fields (`key=value` separated by ";").
    package init(settings text: String) {
        var items: [String] = []
        for field in text.split(separator: ";") {
            guard let equals = field.firstIndex(of: "=") else { continue }
            let key = field[..<equals]
            guard ["libraries", "codec", "jpeg", "webp", "webp:webp"].contains(key) else { continue }
            var value = String(field[field.index(after: equals)...])
            // Before the `libraries` field the encoder wrote "webp=libwebp 1.2.4".
            if key.hasSuffix("webp") { value = value.replacingPrefix("libwebp ", with: "libwebp-encoder ") }
            items += Self.items(of: value)
        }
        self.init(items: items)
    }

    /// The libraries whose version differs between `recorded` and `self` (this build), sorted by
    /// name; none when `recorded` names no library (settings that are not thumbgen's).
    package func changes(from recorded: LibraryVersions) -> [Change] {
        guard !recorded.versions.isEmpty else { return [] }
        return Set(versions.keys).union(recorded.versions.keys).sorted().compactMap { name in
            recorded.versions[name] == versions[name] ? nil : Change(library: name, recorded: recorded.versions[name], current: versions[name])
        }
    }

    /// "a 1, b 2 (x, y), c 3" → ["a 1", "b 2 (x, y)", "c 3"]: split at commas outside parentheses.
    static func items(of list: String) -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        for character in list {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0:
                items.append(current.trimmingSpaces)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        if !current.trimmingSpaces.isEmpty { items.append(current.trimmingSpaces) }
        return items
    }
}

private extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
