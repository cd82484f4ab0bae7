/// Everything the manifest records about one output file.
///
/// Two hashes describe the output: `fileSHA256` covers the PNG bytes and changes whenever zlib or
/// libpng compress differently (a library upgrade, another compression level), while
/// `pixelSHA256` covers the decoded straight RGBA8 samples (row-major, R G B A) and so survives
/// any change of encoder. A golden comparison across machines should use the pixel hash.
public struct ManifestEntry: Sendable, Equatable {
    /// The output's path below the output directory (the manifest's key).
    public var output: String
    /// The source path as the run opened it (the input argument joined with the path below it;
    /// relative paths are relative to the directory the run was started in).
    public var source: String
    /// The source's path below its input (a file input's base name): the part the output tree
    /// mirrors, and what shards hash.
    public var sourceRelative: String
    /// The scale this output was rendered at (1, 2 or 3).
    public var scale: Int
    /// The caller's description of its rendering settings (thumbgen records every option that
    /// affects the output, so `check` can regenerate it).
    public var settings: String
    /// The version of the tool that wrote the output.
    public var toolVersion: String
    /// Output size in pixels.
    public var width: Int
    public var height: Int
    /// SHA-256 of the PNG file's bytes, lower-case hex.
    public var fileSHA256: String
    /// SHA-256 of the decoded RGBA8 pixels, lower-case hex.
    public var pixelSHA256: String
    /// The source as it was when this output was made.
    public var sourceFingerprint: SourceFingerprint

    public init(output: String, source: String, sourceRelative: String, scale: Int, settings: String, toolVersion: String,
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

    var json: JSONValue {
        .object([
            "output": .string(output),
            "source": .string(source),
            "sourceRelative": .string(sourceRelative),
            "scale": .integer(Int64(scale)),
            "settings": .string(settings),
            "toolVersion": .string(toolVersion),
            "width": .integer(Int64(width)),
            "height": .integer(Int64(height)),
            "fileSHA256": .string(fileSHA256),
            "pixelSHA256": .string(pixelSHA256),
            "sourceSHA256": .string(sourceFingerprint.sha256),
            "sourceSize": .integer(sourceFingerprint.size),
            "sourceModifiedNanoseconds": .integer(sourceFingerprint.modifiedNanoseconds),
            "sourceChangedNanoseconds": .integer(sourceFingerprint.changedNanoseconds),
            // Inodes are unsigned; the bit pattern round-trips through Int64.
            "sourceInode": .integer(Int64(bitPattern: sourceFingerprint.inode)),
        ])
    }

    /// Reads an entry back; nil when a member is missing or has the wrong type.
    init?(json: JSONValue) {
        guard let output = json["output"]?.stringValue, let source = json["source"]?.stringValue,
              let relative = json["sourceRelative"]?.stringValue,
              let scale = json["scale"]?.integerValue, let settings = json["settings"]?.stringValue,
              let version = json["toolVersion"]?.stringValue, let width = json["width"]?.integerValue,
              let height = json["height"]?.integerValue, let fileHash = json["fileSHA256"]?.stringValue,
              let pixelHash = json["pixelSHA256"]?.stringValue, let sourceHash = json["sourceSHA256"]?.stringValue,
              let size = json["sourceSize"]?.integerValue, let modified = json["sourceModifiedNanoseconds"]?.integerValue,
              let changed = json["sourceChangedNanoseconds"]?.integerValue, let inode = json["sourceInode"]?.integerValue
        else { return nil }
        self.init(output: output, source: source, sourceRelative: relative, scale: Int(scale), settings: settings, toolVersion: version,
                  width: Int(width), height: Int(height), fileSHA256: fileHash, pixelSHA256: pixelHash,
                  sourceFingerprint: SourceFingerprint(sha256: sourceHash, size: size, modifiedNanoseconds: modified,
                                                       changedNanoseconds: changed, inode: UInt64(bitPattern: inode)))
    }
}
