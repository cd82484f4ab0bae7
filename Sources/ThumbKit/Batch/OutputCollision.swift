/// Two sources that would write one output file (`BatchError.outputCollisions`).
package struct OutputCollision: Sendable, Equatable {
    /// The output, relative to the manifest's folder; `*` stands for the width of a set of widths.
    package var output: FilePath
    /// The source that claimed it first, in plan order, and the one that claimed it again.
    package var first: FilePath
    package var second: FilePath

    package init(output: FilePath, first: FilePath, second: FilePath) {
        self.output = output
        self.first = first
        self.second = second
    }
}
