/// A rendered badge set: every PNG's bytes, made once by `StarBadgeSet.render()`, and the ways to
/// write them — plain files, an Xcode asset catalog, a hash manifest. Everything written comes
/// from these bytes, so writing never draws or encodes again, and the manifest's hashes are those
/// of the files beside it.
package struct StarBadgeFiles: Sendable {
    /// One rendered PNG.
    package struct File: Sendable, Hashable {
        /// File name, e.g. `4StarsSmall@2x.png`.
        package let name: String
        /// Image set name (file name without scale or extension), e.g. `4StarsSmall`.
        package let baseName: String
        /// The rating drawn, 0…slots.
        package let rating: Double
        /// The scale drawn: 1, 2 or 3.
        package let scale: Int
        /// The PNG file's bytes.
        package let bytes: [UInt8]
    }

    /// Every file, ratings in spec order, then scales in spec order; names are unique.
    package let files: [File]

    init(files: [File]) {
        self.files = files
    }

    /// A JSON object mapping each file name to the SHA-256 of its PNG bytes (64 lower-case hex
    /// digits), keys sorted by their UTF-8 bytes, one per line, ending in a newline: the golden
    /// manifest `make assets` writes and the tests compare against.
    package var manifest: [UInt8] {
        // Names are unique (`StarBadgeSet` checks), so no entry is lost to another.
        JSONWriter.bytes(.object(Dictionary(uniqueKeysWithValues: files.map { ($0.name, .string(SHA256.hex($0.bytes))) })))
    }

    /// Writes every PNG into `directory` (created if missing), atomically; returns the paths, in
    /// `files` order.
    @discardableResult
    package func write(to directory: String) throws(StarBadgeError) -> [String] {
        var paths: [String] = []
        for file in files { paths.append(try Self.put(file.bytes, Self.join(directory, file.name))) }
        return paths
    }

    /// Writes an Xcode asset catalog at `directory` (e.g. `Stars.xcassets`): the top-level
    /// `Contents.json`, and for each rating `NAME.imageset/` holding its PNGs and a
    /// `Contents.json` that lists them by scale. Returns the paths written, in order.
    @discardableResult
    package func writeAssetCatalog(to directory: String) throws(StarBadgeError) -> [String] {
        var paths = [try Self.put(Array(AssetCatalog.rootContents.utf8), Self.join(directory, "Contents.json"))]
        var order: [String] = []
        var byBase: [String: [File]] = [:]
        for file in files {
            if byBase[file.baseName] == nil { order.append(file.baseName) }
            byBase[file.baseName, default: []].append(file)
        }
        for base in order {
            let setDirectory = Self.join(directory, base + ".imageset")
            let members = byBase[base]!
            for file in members { paths.append(try Self.put(file.bytes, Self.join(setDirectory, file.name))) }
            let contents = AssetCatalog.imageSetContents(
                files: Dictionary(uniqueKeysWithValues: members.map { ($0.scale, $0.name) }))
            paths.append(try Self.put(Array(contents.utf8), Self.join(setDirectory, "Contents.json")))
        }
        return paths
    }

    /// Writes `manifest` to `path`, atomically.
    package func writeManifest(to path: String) throws(StarBadgeError) {
        try Self.put(manifest, path)
    }

    /// Writes one file atomically, unless it already holds these bytes (a rerun leaves files and
    /// their dates alone); returns its path.
    @discardableResult
    private static func put(_ bytes: [UInt8], _ path: String) throws(StarBadgeError) -> String {
        if case .success(let existing) = FileSystem.read(path), existing == bytes { return path }
        do { try AtomicFile.write(bytes, to: path) } catch { throw .writing(path: path, error) }
        return path
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
    }
}
