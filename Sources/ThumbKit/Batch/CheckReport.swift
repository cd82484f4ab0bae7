/// The result of `Batch.check`: how many outputs were verified and every mismatch, in
/// manifest order (manifests as given, entries by output path).
package struct CheckReport: Sendable, Equatable {
    /// Outputs examined.
    package var checked: Int
    /// Every difference found; an output can appear more than once (e.g. file and pixel hash).
    package var mismatches: [CheckMismatch]

    /// A report of `checked` outputs and the mismatches found among them.
    package init(checked: Int, mismatches: [CheckMismatch]) {
        self.checked = checked
        self.mismatches = mismatches
    }

    /// 0 when every output matched, else 1.
    package var exitStatus: Int32 { mismatches.isEmpty ? 0 : 1 }

    /// `prefix` and one line per output that differs (`output: what; what else`), then, with
    /// `counts`, `N outputs checked, M differ`; each line ends with a newline.
    package func formatted(prefix: String = "", counts: Bool = true) -> String {
        // Mismatches of one output are adjacent (the checker groups them), in first-seen order.
        var lines: [(output: String, what: [String])] = []
        for mismatch in mismatches {
            if lines.last?.output == mismatch.output {
                lines[lines.count - 1].what.append(mismatch.description)
            } else {
                lines.append((mismatch.output, [mismatch.description]))
            }
        }
        var text = lines.map { prefix + $0.output + ": " + $0.what.joined(separator: "; ") }
        if counts { text.append("\(checked) outputs checked, \(Set(mismatches.map(\.output)).count) differ") }
        return text.isEmpty ? "" : text.joined(separator: "\n") + "\n"
    }
}
