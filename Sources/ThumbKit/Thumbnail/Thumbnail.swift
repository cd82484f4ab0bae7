/// One rendered thumbnail: its scale, its 8-bit pixels and the PNG file that holds them.
public struct Thumbnail: Sendable, Equatable {
    /// 1, 2 or 3 (@1x, @2x, @3x).
    public let scale: Int
    public let image: Image
    public let png: [UInt8]
}
