/// An image file format thumbgen decodes, recognised by the file's first bytes.
///
/// Files are recognised by content, never by name, so a mislabelled file is handled by what it
/// is. Adding a format is adding a case here and a decoder for it (`ImageDecoders`).
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// PNG (ISO/IEC 15948), read through libpng.
    case png
    /// JPEG (ITU T.81, JFIF/EXIF), read through libjpeg-turbo.
    case jpeg

    /// The upper-case name used in messages, e.g. "PNG".
    public var description: String { rawValue.uppercased() }

    /// The bytes every file of the format begins with: PNG's 8-byte signature (ISO/IEC 15948
    /// §5.2); JPEG's start-of-image marker followed by the next marker's 0xFF (ITU T.81 §B.1.1.3).
    var signature: [UInt8] {
        switch self {
        case .png: return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case .jpeg: return [0xFF, 0xD8, 0xFF]
        }
    }

    /// How many leading bytes `detect` needs to see.
    package static let detectionLength = allCases.map(\.signature.count).max() ?? 0

    /// The format whose signature `head` (a file's first bytes) starts with, if any.
    package static func detect(_ head: some Collection<UInt8>) -> ImageFormat? {
        allCases.first { head.starts(with: $0.signature) }
    }

    /// Lower-case extensions that promise an image: a file so named that is not a supported image
    /// is a failure rather than silently skipped, because the user evidently meant it as input.
    package static let fileExtensions: Set<String> = ["png", "jpg", "jpeg"]
}
