/// Everything the manifest records about one output file.
///
/// Two hashes describe the output: `fileSHA256` covers the file's bytes and changes whenever the
/// encoder does (a libdeflate or libwebp upgrade, another compression level), while `pixelSHA256` covers
/// the straight RGBA8 samples that were encoded (row-major, R G B A) and so survives any change of
/// encoder. A golden comparison across machines should use the pixel hash.
///
/// Paths are relative to the manifest's folder, so a manifest can be read from any working
/// directory and can live outside its outputs.
package struct ManifestEntry: Sendable, Equatable {
    /// The output's path relative to the manifest's folder (the manifest's key).
    package var output: FilePath
    /// The source's path relative to the manifest's folder.
    package var source: FilePath
    /// The source's path below its input or base: the part the output tree mirrors, and what
    /// shards hash.
    package var sourceRelative: FilePath
    /// The scale this output was rendered at.
    package var scale: Scale
    /// The output's format: `png`, `jpeg` or `webp`.
    package var format: String
    /// For a set of widths, the output's width at @1x (its variant); nil for a set's box.
    package var variantWidth: Int?
    /// The caller's description of its rendering settings (thumbgen records every option that
    /// affects any output of the set, so `check` can make it again).
    package var settings: String
    /// The version of the tool that wrote the output.
    package var toolVersion: String
    /// Output size in pixels.
    package var width: Int
    package var height: Int
    /// SHA-256 of the file's bytes, lower-case hex.
    package var fileSHA256: String
    /// SHA-256 of the encoded RGBA8 pixels, lower-case hex.
    package var pixelSHA256: String
    /// The source as it was when this output was made.
    package var sourceFingerprint: SourceFingerprint
    /// The source's upright size as the set saw it, for sets whose outputs are named by width (so
    /// an unchanged source's names are known without reading it); nil otherwise.
    package var sourceWidth: Int?
    package var sourceHeight: Int?
    /// The star rating drawn on the output, for runs that draw rating badges (absent otherwise,
    /// and then not written: manifests of other runs stay as they were).
    package var rating: RecordedRating?
    /// For a file of an icon set, its path below the set's output folder (`web/favicon.ico`), which
    /// `check` asks the set for; absent otherwise.
    package var iconFile: String?
    /// The source's placeholders (`--placeholder`), by kind (`blurhash`, `color`, `lqip`,
    /// `thumbhash`), the same on every output of the source's set; absent when none were asked.
    package var placeholders: [String: String]?

    package init(output: FilePath, source: FilePath, sourceRelative: FilePath, scale: Scale, format: String = "png",
                 variantWidth: Int? = nil, settings: String, toolVersion: String, width: Int, height: Int,
                 fileSHA256: String, pixelSHA256: String, sourceFingerprint: SourceFingerprint) {
        self.output = output
        self.source = source
        self.sourceRelative = sourceRelative
        self.scale = scale
        self.format = format
        self.variantWidth = variantWidth
        self.settings = settings
        self.toolVersion = toolVersion
        self.width = width
        self.height = height
        self.fileSHA256 = fileSHA256
        self.pixelSHA256 = pixelSHA256
        self.sourceFingerprint = sourceFingerprint
    }

    /// The output this entry records, when its format is one thumbgen writes.
    func matches(_ output: RenderedOutput) -> Bool {
        if let iconFile { return output.iconFile == iconFile }
        let variant = output.variant
        return output.iconFile == nil && variant.scale == scale && variant.format.name == format && variant.width == variantWidth
    }

    var json: JSONValue { .object(Dictionary(uniqueKeysWithValues: sortedMembers)) }

    /// A scale as the manifest writes it: an integer when whole, else a number (`1.5`).
    static func scaleJSON(_ scale: Scale) -> JSONValue {
        if let whole = scale.wholeValue { return .integer(Int64(whole)) }
        return .number(Double(scale.thousandths) / 1000)
    }

    /// The members in key order (by UTF-8 bytes), as the manifest writes them. Paths are written
    /// escaped (`PathEscaping`): JSON text cannot hold bytes that are not UTF-8, and the escaped
    /// form reads back to the exact bytes. Ordinary names are written as they are.
    var sortedMembers: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [
            ("fileSHA256", .string(fileSHA256)),
            ("format", .string(format)),
            ("height", .integer(Int64(height))),
        ]
        if let iconFile { members.append(("iconFile", .string(iconFile))) }
        members += [
            ("output", .string(output.description)),
            ("pixelSHA256", .string(pixelSHA256)),
        ]
        if let placeholders { members.append(("placeholders", Self.placeholdersJSON(placeholders))) }
        if let rating { members += [("rating", rating.ratingJSON), ("ratingOrigin", .string(rating.originName))] }
        members += [
            ("scale", Self.scaleJSON(scale)),
            ("settings", .string(settings)),
            ("source", .string(source.description)),
            ("sourceChangedNanoseconds", .integer(sourceFingerprint.changedNanoseconds)),
        ]
        if let sourceHeight { members.append(("sourceHeight", .integer(Int64(sourceHeight)))) }
        members += [
            // Inodes are unsigned; the bit pattern round-trips through Int64.
            ("sourceInode", .integer(Int64(bitPattern: sourceFingerprint.inode))),
            ("sourceModifiedNanoseconds", .integer(sourceFingerprint.modifiedNanoseconds)),
            ("sourceRelative", .string(sourceRelative.description)),
            ("sourceSHA256", .string(sourceFingerprint.sha256)),
            ("sourceSize", .integer(sourceFingerprint.size)),
        ]
        if let sourceWidth { members.append(("sourceWidth", .integer(Int64(sourceWidth)))) }
        members.append(("toolVersion", .string(toolVersion)))
        if let variantWidth { members.append(("variantWidth", .integer(Int64(variantWidth)))) }
        members.append(("width", .integer(Int64(width))))
        return members
    }

    /// Appends the entry as `JSONWriter.write(members: sortedMembers, indent:into:)` lays it out,
    /// without building the members first (a test holds the two to the same bytes): the manifest
    /// is encoded after the last worker finishes, so its time is added to every run's.
    func write(indent: Int, into out: inout [UInt8]) {
        var object = JSONWriter.ObjectLayout(indent: indent, into: &out)
        object.key("fileSHA256", into: &out)
        JSONWriter.writeString(fileSHA256, into: &out)
        object.key("format", into: &out)
        JSONWriter.writeString(format, into: &out)
        object.key("height", into: &out)
        JSONWriter.writeInteger(Int64(height), into: &out)
        if let iconFile {
            object.key("iconFile", into: &out)
            JSONWriter.writeString(iconFile, into: &out)
        }
        object.key("output", into: &out)
        JSONWriter.writeString(output.description, into: &out)
        object.key("pixelSHA256", into: &out)
        JSONWriter.writeString(pixelSHA256, into: &out)
        if let placeholders {
            object.key("placeholders", into: &out)
            JSONWriter.write(Self.placeholdersJSON(placeholders), indent: indent + 1, into: &out)
        }
        if let rating {
            object.key("rating", into: &out)
            JSONWriter.write(rating.ratingJSON, indent: indent + 1, into: &out)
            object.key("ratingOrigin", into: &out)
            JSONWriter.writeString(rating.originName, into: &out)
        }
        object.key("scale", into: &out)
        JSONWriter.write(Self.scaleJSON(scale), indent: indent + 1, into: &out)
        object.key("settings", into: &out)
        JSONWriter.writeString(settings, into: &out)
        object.key("source", into: &out)
        JSONWriter.writeString(source.description, into: &out)
        object.key("sourceChangedNanoseconds", into: &out)
        JSONWriter.writeInteger(sourceFingerprint.changedNanoseconds, into: &out)
        if let sourceHeight {
            object.key("sourceHeight", into: &out)
            JSONWriter.writeInteger(Int64(sourceHeight), into: &out)
        }
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
        if let sourceWidth {
            object.key("sourceWidth", into: &out)
            JSONWriter.writeInteger(Int64(sourceWidth), into: &out)
        }
        object.key("toolVersion", into: &out)
        JSONWriter.writeString(toolVersion, into: &out)
        if let variantWidth {
            object.key("variantWidth", into: &out)
            JSONWriter.writeInteger(Int64(variantWidth), into: &out)
        }
        object.key("width", into: &out)
        JSONWriter.writeInteger(Int64(width), into: &out)
        object.end(into: &out)
    }

    /// Reads an entry back; the problem names the first member that is missing or has the wrong
    /// type. `version` is the manifest's format: 1 stored names as plain text; 1 and 2 had no
    /// `format` (it is in the settings, PNG when absent) and recorded the source as the run opened
    /// it, relative to its working directory (`cwdSourceBase`, the manifest's folder as seen from
    /// here, turns that into a path relative to the manifest).
    init(json: JSONValue, version: Int64, manifestDirectory: FilePath) throws(JSONMembers.Problem) {
        let members = try JSONMembers(json)
        func path(_ key: String) throws(JSONMembers.Problem) -> FilePath {
            let text = try members.string(key)
            guard version != 1 else { return FilePath(text) }
            guard let bytes = PathEscaping.unescape(text) else { throw JSONMembers.Problem(reason: "'\(key)' is not an escaped path") }
            return FilePath(bytes)
        }
        func optionalInteger(_ key: String) throws(JSONMembers.Problem) -> Int? {
            guard let value = members.optional(key) else { return nil }
            guard let integer = value.integerValue else { throw JSONMembers.Problem(reason: "'\(key)' is not a whole number") }
            return Int(integer)
        }
        let output = try path("output")
        var source = try path("source")
        if version < 3 { source = source.relative(from: manifestDirectory) }
        let sourceRelative = try path("sourceRelative")
        guard let scaleValue = members.optional("scale") else { throw JSONMembers.Problem(reason: "'scale' is missing") }
        guard let scaleNumber = scaleValue.numberValue, scaleNumber > 0, scaleNumber <= 1000 else {
            throw JSONMembers.Problem(reason: "'scale' is not a positive number")
        }
        let settings = try members.string("settings")
        let format = version >= 3 ? try members.string("format") : Self.formatName(inSettings: settings)
        self.init(output: output, source: source,
                  sourceRelative: sourceRelative, scale: Scale(thousandths: Int((scaleNumber * 1000).rounded())),
                  format: format, variantWidth: try optionalInteger("variantWidth"),
                  settings: settings, toolVersion: try members.string("toolVersion"),
                  width: Int(try members.integer("width")), height: Int(try members.integer("height")),
                  fileSHA256: try members.string("fileSHA256"), pixelSHA256: try members.string("pixelSHA256"),
                  sourceFingerprint: SourceFingerprint(
                    sha256: try members.string("sourceSHA256"), size: try members.integer("sourceSize"),
                    modifiedNanoseconds: try members.integer("sourceModifiedNanoseconds"),
                    changedNanoseconds: try members.integer("sourceChangedNanoseconds"),
                    // Inodes are unsigned; the bit pattern round-trips through Int64.
                    inode: UInt64(bitPattern: try members.integer("sourceInode"))))
        sourceWidth = try optionalInteger("sourceWidth")
        sourceHeight = try optionalInteger("sourceHeight")
        rating = try RecordedRating(rating: members.optional("rating"), origin: members.optionalString("ratingOrigin"))
        iconFile = try members.optionalString("iconFile")
        if let value = members.optional("placeholders") {
            guard let object = value.objectValue else { throw JSONMembers.Problem(reason: "'placeholders' is not an object") }
            var placeholders: [String: String] = [:]
            for (key, member) in object {
                guard let text = member.stringValue else { throw JSONMembers.Problem(reason: "'placeholders.\(key)' is not a string") }
                placeholders[key] = text
            }
            self.placeholders = placeholders
        }
    }

    /// Placeholders as a JSON object (written with sorted keys, as every object is).
    static func placeholdersJSON(_ placeholders: [String: String]) -> JSONValue {
        .object(placeholders.mapValues { .string($0) })
    }

    /// The `format=` field of a settings description, PNG when there is none (before JPEG and WebP).
    static func formatName(inSettings settings: String) -> String {
        for field in settings.split(separator: ";") where field.hasPrefix("format=") { return String(field.dropFirst(7)) }
        return "png"
    }
}
