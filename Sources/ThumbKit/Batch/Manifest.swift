import Glibc

/// The record of a batch's outputs, `thumbgen-manifest.json` in the output directory (or where
/// `--manifest` or a project file puts it).
///
/// It keeps every output it has seen: a run adds or replaces the entries of the outputs it makes
/// and keeps all others, so runs with other settings into one folder, or over one subfolder, add
/// up rather than forget each other. Paths in it are relative to its own folder.
///
/// Layout: `{"format": 3, "outputs": [entry, …]}` with entries sorted by output path (byte-wise)
/// and written by `JSONWriter`, so the file is byte-identical for identical runs whatever the job
/// count. It is written atomically (`AtomicFile`) when a run finishes or is cancelled. A run killed
/// outright leaves the previous manifest in place: outputs written since have no entry (or an
/// entry whose fingerprint no longer matches) and are simply rebuilt next time.
package struct Manifest: Sendable, Equatable {
    /// The unsharded manifest's file name.
    package static let defaultName = "thumbgen-manifest.json"
    /// The layout version; a manifest with a later version is ignored (everything rebuilds).
    /// Version 3 records sources relative to the manifest's folder and each output's format,
    /// variant and source size; version 2 (sources as the run opened them, relative to its working
    /// directory) and version 1 (names as plain text, not escaped) are still read.
    package static let formatVersion: Int64 = 3

    /// Entries keyed by output path below the output directory.
    package var entries: [FilePath: ManifestEntry]

    package init(entries: [ManifestEntry] = []) {
        self.entries = Dictionary(entries.map { ($0.output, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Entries in output-path order.
    package var sortedEntries: [ManifestEntry] {
        let values = Array(entries.values)
        return Self.outputOrder(of: values).map { values[$0] }
    }

    /// Positions of `values` in output-path order (by UTF-8 bytes), the one order of every
    /// listing. Positions are sorted rather than the entries, which are large to move.
    private static func outputOrder(of values: [ManifestEntry]) -> [Int] {
        values.indices.sorted { values[$0].output < values[$1].output }
    }

    /// The manifest's bytes, byte-stable.
    package func encoded() -> [UInt8] {
        // `JSONWriter.bytes(document)`, laid out by hand around the entries so that thousands of
        // them are not first built into dictionaries and sorted key by key: the final manifest is
        // written while every core but one idles. A test holds the two to the same bytes.
        let values = Array(entries.values)
        let order = Self.outputOrder(of: values)
        var out: [UInt8] = []
        out.reserveCapacity(64 + 1_100 * values.count)
        out += "{\n  \"format\": \(Self.formatVersion),\n  \"outputs\": ".utf8
        if values.isEmpty {
            out += "[]".utf8
        } else {
            out += "[\n".utf8
            for (n, index) in order.enumerated() {
                out += "    ".utf8
                values[index].write(indent: 2, into: &out)
                if n != order.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(0x0A)
            }
            out += "  ]".utf8
        }
        out += "\n}\n".utf8
        return out
    }

    /// The document `encoded()` writes, as a `JSONValue`.
    var document: JSONValue {
        .object(["format": .integer(Self.formatVersion), "outputs": .array(sortedEntries.map(\.json))])
    }

    /// Parses a manifest's bytes; `path` only names the file in the error.
    package static func decode(_ bytes: [UInt8], path: FilePath) throws(BatchError) -> Manifest {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw .unreadableManifest(path: path, reason: error.message)
        }
        guard let version = document["format"]?.integerValue, (1...formatVersion).contains(version) else {
            throw .unreadableManifest(path: path, reason: "unknown format version")
        }
        guard let outputs = document["outputs"]?.arrayValue else {
            throw .unreadableManifest(path: path, reason: "no outputs list")
        }
        var entries: [ManifestEntry] = []
        for (index, value) in outputs.enumerated() {
            do {
                entries.append(try ManifestEntry(json: value, version: version, manifestDirectory: path.directory))
            } catch {
                throw .unreadableManifest(path: path, reason: "output \(index): \(error.reason)")
            }
        }
        return Manifest(entries: entries)
    }

    /// Reads and parses a manifest file.
    package static func load(path: FilePath) throws(BatchError) -> Manifest {
        switch FileSystem.read(path) {
        case .failure(let failure): throw .unreadableManifest(path: path, reason: failure.reason)
        case .success(let bytes): return try decode(bytes, path: path)
        }
    }

    /// `load(path:)` for a path given as text.
    package static func load(path: String) throws(BatchError) -> Manifest { try load(path: FilePath(path)) }

    /// The manifest at `path`, or an empty one when there is none or it cannot be used: a
    /// missing or damaged manifest only costs a rebuild, never a failed run.
    static func loadOrEmpty(path: FilePath) -> Manifest {
        (try? load(path: path)) ?? Manifest()
    }

    /// `a == b`, compared with `memcmp`: the generic comparison goes byte by byte, and a manifest
    /// of thousands of entries is megabytes.
    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in a.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
    }

    /// Writes the manifest atomically, unless the file already holds exactly these bytes (so a
    /// no-op run leaves the output directory completely untouched). Returns whether it wrote.
    @discardableResult
    package func write(to path: FilePath, direct: Bool = false) throws(FileWriteError) -> Bool {
        let bytes = encoded()
        if case .success(let existing) = FileSystem.read(path), Self.sameBytes(existing, bytes) { return false }
        if direct { try DirectFile.write(bytes, to: path, sync: true) } else { try AtomicFile.write(bytes, to: path) }
        return true
    }
}
