/// One way an output failed `Batch.check`'s verification.
package struct CheckMismatch: Sendable, Equatable {
    /// What differed. Hashes are lower-case hex SHA-256.
    package enum Kind: Sendable, Equatable {
        /// The file on disk is not the file the manifest recorded.
        case fileHashOnDisk(expected: String, actual: String)
        /// The file on disk decodes to other pixels than recorded.
        case pixelHashOnDisk(expected: String, actual: String)
        /// The file on disk decodes to another size than recorded.
        case sizeOnDisk(expected: String, actual: String)
        /// The source's bytes are not the ones the output was made from (its SHA-256 differs from
        /// the manifest's): the fixture changed, not the renderer, so it is not regenerated.
        case sourceChanged(expected: String, actual: String)
        /// Rendering the source again gives the same pixels in other file bytes: the encoder
        /// (libdeflate, libjpeg-turbo, libwebp) changed. `libraries` are the versions that
        /// differ from the manifest's.
        case encoderBytesDiffer(libraries: [LibraryVersions.Change])
        /// Rendering the source again gives other pixels: `measure` says how far they are from the
        /// output on disk (nil when there is none to measure against), `libraries` which library
        /// versions differ from the manifest's, `diffImage` where a diff image was written.
        case pixelsDiffer(expected: String, actual: String, measure: String?, libraries: [LibraryVersions.Change], diffImage: String?)
        /// Rendering the source again reads another star rating from it (a file edited in place
        /// would also change its hash; this names what changed).
        case ratingRegenerated(expected: String, actual: String)
        /// Rendering the source again gives another size.
        case sizeRegenerated(expected: String, actual: String)
        /// The output file is unreadable or not a decodable image (a missing one is not a
        /// mismatch: the manifest and the sources are enough to check it).
        case outputUnreadable(reason: String)
        /// The source is missing or unreadable, or the renderer failed or gave no output at this scale.
        case regenerationFailed(reason: String)
        /// The entry was made with other settings than the ones being checked, so regenerating it
        /// would prove nothing.
        case settingsDiffer(recorded: String, current: String)
    }

    /// The output's path: the manifest's directory joined with the entry's output path, escaped.
    package var output: String
    /// What differed.
    package var kind: Kind

    /// A mismatch of `output` (already escaped).
    package init(output: String, kind: Kind) {
        self.output = output
        self.kind = kind
    }

    /// `output: what differed`, one line.
    package var line: String { "\(output): \(description)" }

    /// A short name of the kind, for `--json`.
    package var kindName: String {
        switch kind {
        case .fileHashOnDisk: return "file-hash-on-disk"
        case .pixelHashOnDisk: return "pixel-hash-on-disk"
        case .sizeOnDisk: return "size-on-disk"
        case .sourceChanged: return "source-changed"
        case .encoderBytesDiffer: return "encoder-bytes-differ"
        case .pixelsDiffer: return "pixels-differ"
        case .ratingRegenerated: return "rating-differs"
        case .sizeRegenerated: return "size-differs"
        case .outputUnreadable: return "output-unreadable"
        case .regenerationFailed: return "cannot-regenerate"
        case .settingsDiffer: return "settings-differ"
        }
    }

    /// The library versions that differ, as " (libpng 1.6.39 → 1.6.43, zlib …)", or nothing.
    static func librariesNote(_ changes: [LibraryVersions.Change]) -> String {
        changes.isEmpty ? "" : " (library version differs: " + changes.map(\.description).joined(separator: ", ") + ")"
    }

    /// What differed, without the output's name.
    package var description: String {
        func short(_ hash: String) -> String { String(hash.prefix(12)) }
        let what: String
        switch kind {
        case .fileHashOnDisk(let e, let a): what = "file hash differs on disk (manifest \(short(e)), file \(short(a)))"
        case .pixelHashOnDisk(let e, let a): what = "pixel hash differs on disk (manifest \(short(e)), file \(short(a)))"
        case .sizeOnDisk(let e, let a): what = "size differs on disk (manifest \(e), file \(a))"
        case .sourceChanged(let e, let a): what = "source changed since the manifest (SHA-256 \(short(e)), now \(short(a))); not regenerated"
        case .encoderBytesDiffer(let libraries): what = "encoder's bytes differ, pixels equal" + Self.librariesNote(libraries)
        case .pixelsDiffer(let e, let a, let measure, let libraries, let diffImage):
            what = "pixels differ" + (measure.map { ": " + $0 } ?? " (pixel hash manifest \(short(e)), now \(short(a)); no output on disk to measure)")
                + Self.librariesNote(libraries) + (diffImage.map { "; diff image \($0)" } ?? "")
        case .ratingRegenerated(let e, let a): what = "rating differs when regenerated (manifest \(e), now \(a))"
        case .sizeRegenerated(let e, let a): what = "size differs when regenerated (manifest \(e), now \(a))"
        case .outputUnreadable(let reason): what = "cannot verify output: \(PathEscaping.singleLine(reason))"
        case .regenerationFailed(let reason): what = "cannot regenerate: \(PathEscaping.singleLine(reason))"
        case .settingsDiffer(let r, let c): what = "made with other settings (manifest \(short(r)), now \(short(c)))"
        }
        return what
    }
}
