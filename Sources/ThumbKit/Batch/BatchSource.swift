/// One source image handed to the renderer.
public struct BatchSource: Sendable {
    /// The path the file was read from (for messages; the bytes are already read).
    public let path: String
    /// The whole file. It is read once, by the worker that renders it, so that the hash that
    /// goes in the manifest describes exactly the bytes that were rendered.
    public let bytes: [UInt8]
    /// The scales to render, ascending; return one `RenderedOutput` per scale, labelled with
    /// `OutputNaming.suffix(forScale:)`.
    public let scales: [Int]

    public init(path: String, bytes: [UInt8], scales: [Int]) {
        self.path = path
        self.bytes = bytes
        self.scales = scales
    }
}
