/// A validated set of badge files — one badge per rating, one PNG per scale — and the ways to
/// write them: plain files or an Xcode asset catalog.
///
/// Output order is ratings in spec order, then scales in spec order. PNGs are 8-bit sRGB from
/// `PNGEncoder()` (smallest lossless colour type, deterministic), so the same spec gives the same
/// bytes on every machine with the same zlib; pixel content is identical everywhere.
public struct StarBadgeSet: Sendable {
    /// One rendered file.
    public struct File: Sendable, Hashable {
        /// File name, e.g. `4StarsSmall@2x.png`.
        public var name: String
        /// Image set name (file name without scale or extension), e.g. `4StarsSmall`.
        public var baseName: String
        /// The rating drawn.
        public var rating: Double
        /// 1, 2 or 3.
        public var scale: Int
        /// The PNG file's bytes.
        public var bytes: [UInt8]
    }

    /// The spec this set was made from.
    public let spec: StarBadgeSpec
    /// One validated badge per rating, in spec order.
    public let badges: [StarBadge]

    /// Validates every setting of `spec`; errors name the offending option.
    public init(spec: StarBadgeSpec) throws(StarBadgeError) {
        let ratings = spec.effectiveRatings
        if spec.scales.isEmpty { throw .invalidScale(text: "") }
        if ratings.isEmpty { throw .malformedRating(text: "") }
        var badges: [StarBadge] = []
        for rating in ratings { badges.append(try spec.badge(rating: rating)) }
        var seen: Set<String> = []
        for rating in ratings {
            let name = spec.nameFormat.baseName(rating: rating)
            guard seen.insert(name).inserted else {
                throw .invalidNameFormat(format: spec.nameFormat.format,
                                         reason: "gives '\(name)' for two ratings (add %r)")
            }
        }
        self.spec = spec
        self.badges = badges
    }

    /// Renders and encodes every file.
    public func files() throws(StarBadgeError) -> [File] {
        var out: [File] = []
        for badge in badges {
            for scale in spec.scales {
                let image = Image(badge.render(scale: scale))
                let bytes: [UInt8]
                do { bytes = try PNGEncoder().encode(image) } catch { throw .encoding(error) }
                out.append(File(name: spec.nameFormat.fileName(rating: badge.rating, scale: scale),
                                baseName: spec.nameFormat.baseName(rating: badge.rating),
                                rating: badge.rating, scale: scale, bytes: bytes))
            }
        }
        return out
    }

    /// A JSON object mapping each file name to the SHA-256 of its PNG bytes, sorted by name: the
    /// golden manifest `make assets` writes and the tests compare against.
    public func hashManifest() throws(StarBadgeError) -> String {
        let lines = try files().sorted { $0.name < $1.name }.map { "  \"\($0.name)\": \"\(SHA256.hex($0.bytes))\"" }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// Writes every PNG into `directory` (created if missing), atomically; returns the paths.
    @discardableResult
    public func write(to directory: String) throws(StarBadgeError) -> [String] {
        var paths: [String] = []
        for file in try files() {
            let path = Self.join(directory, file.name)
            do { try AtomicFile.write(file.bytes, to: path) } catch { throw .writing(path: path, error) }
            paths.append(path)
        }
        return paths
    }

    /// Writes an Xcode asset catalog at `directory` (e.g. `Stars.xcassets`): the top-level
    /// `Contents.json`, and for each rating `NAME.imageset/` holding its PNGs and a
    /// `Contents.json` that lists them by scale. Returns the paths written, in order.
    @discardableResult
    public func writeAssetCatalog(to directory: String) throws(StarBadgeError) -> [String] {
        var paths: [String] = []
        func put(_ bytes: [UInt8], _ path: String) throws(StarBadgeError) {
            do { try AtomicFile.write(bytes, to: path) } catch { throw .writing(path: path, error) }
            paths.append(path)
        }
        try put(Array(AssetCatalog.rootContents.utf8), Self.join(directory, "Contents.json"))
        let all = try files()
        var order: [String] = []
        var byBase: [String: [File]] = [:]
        for file in all {
            if byBase[file.baseName] == nil { order.append(file.baseName) }
            byBase[file.baseName, default: []].append(file)
        }
        for base in order {
            let setDirectory = Self.join(directory, base + ".imageset")
            let files = byBase[base]!
            for file in files { try put(file.bytes, Self.join(setDirectory, file.name)) }
            let contents = AssetCatalog.imageSetContents(
                files: Dictionary(uniqueKeysWithValues: files.map { ($0.scale, $0.name) }))
            try put(Array(contents.utf8), Self.join(setDirectory, "Contents.json"))
        }
        return paths
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
    }
}
