/// Everything the manifest records about one output file.
///
/// Two hashes describe the output: `fileSHA256` covers the PNG bytes and changes whenever zlib or
/// libpng compress differently (a library upgrade, another compression level), while
/// `pixelSHA256` covers the decoded straight RGBA8 samples (row-major, R G B A) and so survives
/// any change of encoder. A golden comparison across machines should use the pixel hash.
package struct ManifestEntry: Sendable, Equatable {
    /// The output's path below the output directory (the manifest's key).
    package var output: FilePath
    /// The source path as the run opened it (the input argument joined with the path below it;
    /// relative paths are relative to the directory the run was started in).
    package var source: FilePath
    /// The source's path below its input (a file input's base name): the part the output tree
    /// mirrors, and what shards hash.
    package var sourceRelative: FilePath
    /// The scale this output was rendered at (1, 2 or 3).
    package var scale: Int
    /// The caller's description of its rendering settings (thumbgen records every option that
    /// affects the output, so `check` can regenerate it).
    package var settings: String
    /// The version of the tool that wrote the output.
    package var toolVersion: String
    /// Output size in pixels.
    package var width: Int
    package var height: Int
    /// SHA-256 of the PNG file's bytes, lower-case hex.
    package var fileSHA256: String
    /// SHA-256 of the decoded RGBA8 pixels, lower-case hex.
    package var pixelSHA256: String
    /// The source as it was when this output was made.
    package var sourceFingerprint: SourceFingerprint
    /// The star rating drawn on the output, for runs that draw rating badges (absent otherwise,
    /// and then not written: manifests of other runs stay as they were).
    package var rating: RecordedRating?

    package init(output: FilePath, source: FilePath, sourceRelative: FilePath, scale: Int, settings: String, toolVersion: String,
                 width: Int, height: Int, fileSHA256: String, pixelSHA256: String, sourceFingerprint: SourceFingerprint) {
        self.output = output
        self.source = source
        self.sourceRelative = sourceRelative
        self.scale = scale
        self.settings = settings
        self.toolVersion = toolVersion
        self.width = width
        self.height = height
        self.fileSHA256 = fileSHA256
        self.pixelSHA256 = pixelSHA256
        self.sourceFingerprint = sourceFingerprint
    }

    var json: JSONValue { .object(Dictionary(uniqueKeysWithValues: sortedMembers)) }

    /// The members in key order (by UTF-8 bytes), as the manifest writes them. Paths are written
    /// escaped (`PathEscaping`): JSON text cannot hold bytes that are not UTF-8, and the escaped
    /// form reads back to the exact bytes. Ordinary names are written as they are.
    var sortedMembers: [(key: String, value: JSONValue)] {
        [
            ("fileSHA256", .string(fileSHA256)),
            ("height", .integer(Int64(height))),
            ("output", .string(output.description)),
            ("pixelSHA256", .string(pixelSHA256)),
        ] + (rating.map { [("rating", $0.ratingJSON), ("ratingOrigin", .string($0.originName))] } ?? []) + [
            ("scale", .integer(Int64(scale))),
            ("settings", .string(settings)),
            ("source", .string(source.description)),
            ("sourceChangedNanoseconds", .integer(sourceFingerprint.changedNanoseconds)),
            // Inodes are unsigned; the bit pattern round-trips through Int64.
            ("sourceInode", .integer(Int64(bitPattern: sourceFingerprint.inode))),
            ("sourceModifiedNanoseconds", .integer(sourceFingerprint.modifiedNanoseconds)),
            ("sourceRelative", .string(sourceRelative.description)),
            ("sourceSHA256", .string(sourceFingerprint.sha256)),
            ("sourceSize", .integer(sourceFingerprint.size)),
            ("toolVersion", .string(toolVersion)),
            ("width", .integer(Int64(width))),
        ]
    }

    /// Appends the entry as `JSONWriter.write(members: sortedMembers, indent:into:)` lays it out,
    /// without building the members first (a test holds the two to the same bytes): the manifest
    /// is encoded after the last worker finishes, so its time is added to every run's.
    func write(indent: Int, into out: inout [UInt8]) {
        var object = JSONWriter.ObjectLayout(indent: indent, into: &out)
        object.key("fileSHA256", into: &out)
        JSONWriter.writeString(fileSHA256, into: &out)
        object.key("height", into: &out)
        JSONWriter.writeInteger(Int64(height), into: &out)
        object.key("output", into: &out)
        JSONWriter.writeString(output.description, into: &out)
        object.key("pixelSHA256", into: &out)
        JSONWriter.writeString(pixelSHA256, into: &out)
        if let rating {
            object.key("rating", into: &out)
            JSONWriter.write(rating.ratingJSON, indent: indent + 1, into: &out)
            object.key("ratingOrigin", into: &out)
            JSONWriter.writeString(rating.originName, into: &out)
        }
        object.key("scale", into: &out)
        JSONWriter.writeInteger(Int64(scale), into: &out)
        object.key("settings", into: &out)
        JSONWriter.writeString(settings, into: &out)
        object.key("source", into: &out)
        JSONWriter.writeString(source.description, into: &out)
        object.key("sourceChangedNanoseconds", into: &out)
        JSONWriter.writeInteger(sourceFingerprint.changedNanoseconds, into: &out)
        object.key("sourceInode", into: &out)
        JSONWriter.writeInteger(Int64(bitPattern: sourceFingerprint.inode), into: &out)
        object.key("sourceModifiedNanoseconds", into: &out)
        JSONWriter.writeInteger(sourceFingerprint.modifiedNanoseconds, into: &out)
        object.key("sourceRelative", into: &out)
        JSONWriter.writeString(sourceRelative.description, into: &out)
        object.key("sourceSHA256", into: &out)
        JSONWriter.writeString(sourceFingerprint.sha256, into: &out)
        object.key("sourceSize", into: &out)
        JSONWriter.writeInteger(sourceFingerprint.size, into: &out)
        object.key("toolVersion", into: &out)
        JSONWriter.writeString(toolVersion, into: &out)
        object.key("width", into: &out)
        JSONWriter.writeInteger(Int64(width), into: &out)
        object.end(into: &out)
    }

    /// Reads an entry back; the problem names the first member that is missing or has the wrong
    /// type. `escapedPaths` is false for manifests of format 1, which stored names as plain text.
    init(json: JSONValue, escapedPaths: Bool = true) throws(JSONMembers.Problem) {
        let members = try JSONMembers(json)
        func path(_ key: String) throws(JSONMembers.Problem) -> FilePath {
            let text = try members.string(key)
            guard escapedPaths else { return FilePath(text) }
            guard let bytes = PathEscaping.unescape(text) else { throw JSONMembers.Problem(reason: "'\(key)' is not an escaped path") }
            return FilePath(bytes)
        }
        self.init(output: try path("output"), source: try path("source"),
                  sourceRelative: try path("sourceRelative"), scale: Int(try members.integer("scale")),
                  settings: try members.string("settings"), toolVersion: try members.string("toolVersion"),
                  width: Int(try members.integer("width")), height: Int(try members.integer("height")),
                  fileSHA256: try members.string("fileSHA256"), pixelSHA256: try members.string("pixelSHA256"),
                  sourceFingerprint: SourceFingerprint(
                    sha256: try members.string("sourceSHA256"), size: try members.integer("sourceSize"),
                    modifiedNanoseconds: try members.integer("sourceModifiedNanoseconds"),
                    changedNanoseconds: try members.integer("sourceChangedNanoseconds"),
                    // Inodes are unsigned; the bit pattern round-trips through Int64.
                    inode: UInt64(bitPattern: try members.integer("sourceInode"))))
        rating = try RecordedRating(rating: members.optional("rating"), origin: members.optionalString("ratingOrigin"))
    }
}
