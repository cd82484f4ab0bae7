/// The outcome of `Batch.check`: how many outputs were checked, what differed, and what was seen
/// of the ones that match.
package struct CheckReport: Sendable, Equatable {
    /// Outputs examined.
    package var checked: Int
    /// Every difference found; an output can appear more than once (e.g. file and pixel hash).
    package var mismatches: [CheckMismatch]
    /// One line for each output that matches, in manifest order: `ok`, or `ok` with what was
    /// noticed (not on disk, within the tolerance, a library version that differs with the same bytes).
    package var matches: [(output: String, note: String)] = []
    /// Outputs `--update` rewrote (with their manifest entries).
    package var updated: [String] = []

    /// A report of `checked` outputs and the mismatches found among them.
    package init(checked: Int, mismatches: [CheckMismatch]) {
        self.checked = checked
        self.mismatches = mismatches
    }

    package static func == (lhs: CheckReport, rhs: CheckReport) -> Bool {
        lhs.checked == rhs.checked && lhs.mismatches == rhs.mismatches && lhs.updated == rhs.updated
            && lhs.matches.map(\.output) == rhs.matches.map(\.output) && lhs.matches.map(\.note) == rhs.matches.map(\.note)
    }

    /// 0 when every output matched (or was updated), else 1.
    package var exitStatus: Int32 { Set(mismatches.map(\.output)).subtracting(updated).isEmpty ? 0 : 1 }

    /// Mismatches by output, outputs in first-seen order (the checker keeps an output's adjacent).
    private var grouped: [(output: String, what: [String])] {
        var lines: [(output: String, what: [String])] = []
        for mismatch in mismatches {
            if lines.last?.output == mismatch.output {
                lines[lines.count - 1].what.append(mismatch.description)
            } else {
                lines.append((mismatch.output, [mismatch.description]))
            }
        }
        return lines
    }

    /// `prefix` and, with `outputs`, one line per output that differs (`output: what; what else`), with `verbose`
    /// also one per output that matches (`output: ok`), then, with `counts`, the summary line
    /// (`N outputs checked, M differ`, and `, K updated`). Empty when there is nothing to say.
    package func formatted(prefix: String = "", outputs: Bool = true, counts: Bool = true, verbose: Bool = false) -> String {
        var text = !outputs ? [] : grouped.map { prefix + $0.output + ": " + $0.what.joined(separator: "; ")
            + (updated.contains($0.output) ? "; updated" : "") }
        if verbose { text += matches.map { $0.output + ": " + $0.note } }
        if counts {
            text.append("\(checked) outputs checked, \(Set(mismatches.map(\.output)).count) differ" + (updated.isEmpty ? "" : ", \(updated.count) updated"))
        }
        return text.isEmpty ? "" : text.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: `checked`, `differ`, `updated`, and `outputs`, each with `output`,
    /// `status` (`ok` or `differs`), `diagnoses` (`kind` and `message`) or `note`.
    package var json: String {
        var outputs: [JSONValue] = grouped.map { group in
            .object(["output": .string(group.output), "status": .string("differs"), "updated": .bool(updated.contains(group.output)),
                     "diagnoses": .array(mismatches.filter { $0.output == group.output }.map {
                         .object(["kind": .string($0.kindName), "message": .string($0.description)])
                     })])
        }
        outputs += matches.map { .object(["output": .string($0.output), "status": .string("ok"), "note": .string($0.note)]) }
        return JSONWriter.string(.object([
            "checked": .integer(Int64(checked)), "differ": .integer(Int64(Set(mismatches.map(\.output)).count)),
            "updated": .integer(Int64(updated.count)), "outputs": .array(outputs),
        ]))
    }
}
