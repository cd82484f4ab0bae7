/// One source image handed to the renderer.
package struct BatchSource: Sendable {
    /// The path the file was read from (for messages; the bytes are already read).
    package let path: String
    /// The whole file. It is read once, by the worker that renders it, so that the hash that
    /// goes in the manifest describes exactly the bytes that were rendered.
    package let bytes: [UInt8]
    /// The scales to render, ascending; return one `RenderedOutput` per scale, labelled with
    /// `OutputNaming.suffix(forScale:)`.
    package let scales: [Int]
    /// The rendering settings to use, as the caller described them: the run's own during a run,
    /// the ones recorded in the manifest during `check`.
    package let settings: String

    /// A source as a worker hands it to the renderer (or a test does).
    package init(path: String, bytes: [UInt8], scales: [Int], settings: String = "") {
        self.path = path
        self.bytes = bytes
        self.scales = scales
        self.settings = settings
    }
}
