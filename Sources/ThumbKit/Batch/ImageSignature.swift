/// A file format recognised by its first bytes, and whether the batch can render it.
///
/// Sources are recognised by content, never by extension, so that a mislabelled file is handled
/// by what it is. Adding a format is adding one value to `ImageSignature.known`; flipping
/// `isSupported` (once a decoder exists) makes its files render instead of failing.
public struct ImageSignature: Sendable, Hashable {
    /// Short upper-case format name used in messages, e.g. `"PNG"`.
    public let name: String
    /// The bytes every file of this format begins with.
    public let prefix: [UInt8]
    /// False for formats that are recognised only to be reported as unsupported.
    public let isSupported: Bool

    public init(name: String, prefix: [UInt8], isSupported: Bool) {
        self.name = name
        self.prefix = prefix
        self.isSupported = isSupported
    }

    /// PNG's 8-byte signature (ISO/IEC 15948 §5.2).
    public static let png = ImageSignature(name: "PNG", prefix: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], isSupported: true)
    /// JPEG's start-of-image marker followed by the next marker's 0xFF (ITU T.81 §B.1.1.3).
    public static let jpeg = ImageSignature(name: "JPEG", prefix: [0xFF, 0xD8, 0xFF], isSupported: true)

    /// Every format the batch recognises, tried in order.
    public static let known: [ImageSignature] = [.png, .jpeg]

    /// How many leading bytes recognition needs.
    static let longestPrefix = known.map(\.prefix.count).max() ?? 0

    /// The format whose signature `head` starts with, if any.
    static func recognise(_ head: [UInt8]) -> ImageSignature? {
        known.first { head.starts(with: $0.prefix) }
    }

    /// Lower-case extensions that promise an image: a file so named that is not a supported image
    /// is a failure rather than silently skipped, because the user evidently meant it as input.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg"]
}
