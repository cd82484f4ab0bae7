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

    /// `prefix` and one line per mismatch, then `N outputs checked, M differ` (M counts outputs,
    /// not mismatches), ending with a newline.
    package func formatted(prefix: String = "") -> String {
        let failing = Set(mismatches.map(\.output)).count
        return (mismatches.map { prefix + $0.line } + ["\(checked) outputs checked, \(failing) differ"]).joined(separator: "\n") + "\n"
    }
}
