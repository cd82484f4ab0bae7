/// One rendered thumbnail: its scale, its 8-bit pixels and the PNG file that holds them.
public struct Thumbnail: Sendable, Equatable {
    /// 1, 2 or 3 (@1x, @2x, @3x).
    public let scale: Int
    public let image: Image
    public let png: [UInt8]
    /// Problems with the source that did not stop it (corrupt-data warnings, a colour profile that
    /// could not be used); the same for every scale of one source.
    public var warnings: [String] = []
}
