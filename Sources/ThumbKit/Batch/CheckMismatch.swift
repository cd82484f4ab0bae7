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
        /// Rendering the source again gives other file bytes (expected after an encoder upgrade).
        case fileHashRegenerated(expected: String, actual: String)
        /// Rendering the source again gives other pixels (a real change in rendering).
        case pixelHashRegenerated(expected: String, actual: String)
        /// Rendering the source again reads another star rating from it (a file edited in place
        /// would also change its hash; this names what changed).
        case ratingRegenerated(expected: String, actual: String)
        /// Rendering the source again gives another size.
        case sizeRegenerated(expected: String, actual: String)
        /// The output file is missing, unreadable or not a decodable image.
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

    /// What differed, without the output's name.
    package var description: String {
        func short(_ hash: String) -> String { String(hash.prefix(12)) }
        let what: String
        switch kind {
        case .fileHashOnDisk(let e, let a): what = "file hash differs on disk (manifest \(short(e)), file \(short(a)))"
        case .pixelHashOnDisk(let e, let a): what = "pixel hash differs on disk (manifest \(short(e)), file \(short(a)))"
        case .sizeOnDisk(let e, let a): what = "size differs on disk (manifest \(e), file \(a))"
        case .fileHashRegenerated(let e, let a): what = "file hash differs when regenerated (manifest \(short(e)), now \(short(a)))"
        case .pixelHashRegenerated(let e, let a): what = "pixel hash differs when regenerated (manifest \(short(e)), now \(short(a)))"
        case .ratingRegenerated(let e, let a): what = "rating differs when regenerated (manifest \(e), now \(a))"
        case .sizeRegenerated(let e, let a): what = "size differs when regenerated (manifest \(e), now \(a))"
        case .outputUnreadable(let reason): what = "cannot verify output: \(PathEscaping.singleLine(reason))"
        case .regenerationFailed(let reason): what = "cannot regenerate: \(PathEscaping.singleLine(reason))"
        case .settingsDiffer(let r, let c): what = "made with other settings (manifest \(short(r)), now \(short(c)))"
        }
        return what
    }
}
