import Glibc

/// How `thumbgen check` judges and acts on differences.
package struct CheckOptions: Sendable, Equatable {
    /// The largest difference of one channel (0…255) accepted when regenerated pixels differ from
    /// the output on disk (`--tolerance`); 0 accepts none.
    package var tolerance: Int
    /// Where to write a diff image of each output whose pixels differ (`--diff`), mirroring the
    /// outputs' paths below their manifest's folder, as `NAME.diff.png`; nil for none.
    package var diffDirectory: FilePath?
    /// Rewrite the outputs that differ and their manifest entries with what regenerating gives
    /// now (`--update`).
    package var update: Bool

    package init(tolerance: Int = 0, diffDirectory: FilePath? = nil, update: Bool = false) {
        self.tolerance = tolerance
        self.diffDirectory = diffDirectory
        self.update = update
    }
}

extension SystemFailure {
    /// The file is not there (ENOENT): for `check`, an output it can verify from the manifest alone.
    var isMissingFile: Bool { reason == SystemFailure(code: ENOENT).reason }
}
