/// What happened to one file of a batch, in detail, for logs other tools read (the CLI's
/// `--events`): one per file, in plan order, after the file's own event.
///
/// Everything but `milliseconds` is deterministic: the same inputs and options give the same
/// reports, in the same order, for any job count.
package struct FileReport: Sendable, Equatable {
    package enum Outcome: String, Sendable, Equatable {
        case written
        case upToDate = "up-to-date"
        case failed
        case skipped
    }

    /// The source's path, escaped for printing (as messages show it).
    package var path: String
    package var outcome: Outcome
    /// The outputs it has (written now or already up to date), escaped, as paths from the working
    /// directory.
    package var outputs: [String]
    /// Bytes written for it (0 unless written).
    package var bytes: Int
    /// Why it failed or was skipped.
    package var reason: String?
    /// Wall-clock time spent on it by its worker (hashing, decoding, encoding, writing); 0 for
    /// files decided while planning.
    package var milliseconds: Int

    /// One JSON object on one line, members in a fixed order:
    /// `{"path":…,"outcome":…,"outputs":[…],"bytes":N,"ms":N}` (and `"reason"` when there is one).
    package var jsonLine: String {
        var line = "{\"path\":\(JSONWriter.literal(path)),\"outcome\":\"\(outcome.rawValue)\""
        line += ",\"outputs\":[" + outputs.map(JSONWriter.literal).joined(separator: ",") + "]"
        line += ",\"bytes\":\(bytes)"
        if let reason { line += ",\"reason\":\(JSONWriter.literal(reason))" }
        return line + ",\"ms\":\(milliseconds)}"
    }
}
