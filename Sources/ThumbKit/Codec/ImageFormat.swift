/// An image file format thumbgen decodes, recognised by the file's first bytes.
///
/// Files are recognised by content, never by name, so a mislabelled file is handled by what it
/// is. Adding a format is adding a case here, its entry in `facts`, and a decoder for it
/// (`ImageDecoders`); every list of formats and extensions (help texts, the walker, messages) is
/// made from these.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// PNG (ISO/IEC 15948), read through libpng.
    case png
    /// JPEG (ITU T.81, JFIF/EXIF), read through libjpeg-turbo.
    case jpeg
    /// WebP (RFC 9649): lossy, lossless, alpha, animations (first frame), read through libwebp.
    case webp
    /// GIF (87a and 89a): the first image, read through giflib.
    case gif
    /// TIFF (and BigTIFF): the first page, read through libtiff.
    case tiff
    /// HEIF (ISO/IEC 23008-12) with HEVC (HEIC) or AV1 (AVIF) images: the primary image, read
    /// through libheif.
    case heif
    /// Camera RAW files (DNG, CR2, CR3, NEF, ARW, ORF, RW2, PEF, SRW, RAF): the largest JPEG
    /// preview the camera embedded, read through libjpeg-turbo; the sensor data is never
    /// demosaiced. See `CameraRAW` for how a TIFF-shaped file is told from a TIFF.
    case raw

    /// What thumbgen knows of a format besides its decoder: the one table of names, extensions
    /// and signatures.
    struct Facts {
        /// The name used in messages, e.g. "PNG", "WebP".
        let name: String
        /// The names its kinds of files go by, where people know them better (HEIC, AVIF).
        var kinds: [String] = []
        /// Lower-case extensions that promise a file of the format.
        let extensions: [String]
        /// The bytes every file of the format begins with, nil where any byte may stand, one
        /// pattern per variant.
        let signatures: [[UInt8?]]
    }

    /// The format's facts, from the table made once per process (recognising a file looks at
    /// every format's signatures; the help texts, at every format's names).
    var facts: Facts { ImageFormat.table[ImageFormat.allCases.firstIndex(of: self)!] }

    private static let table = allCases.map(\.madeFacts)

    /// The facts of each format. Signatures: PNG's 8-byte signature (ISO/IEC 15948 §5.2); JPEG's
    /// start-of-image marker followed by the next marker's 0xFF (ITU T.81 §B.1.1.3); WebP's RIFF
    /// header, whose size field varies (RFC 9649 §2.4); GIF's "GIF87a" or "GIF89a"; TIFF's byte
    /// order and magic number, 42 for classic TIFF and 43 for BigTIFF; HEIF's `ftyp` box first,
    /// whose size varies, with a HEIF or AVIF major brand (ISO/IEC 23008-12 Annex B, AVIF §8.2);
    /// camera RAW: Olympus ORF's TIFF header with its own magic ("RO", "RS"), Panasonic RW2's
    /// (0x55), Fujifilm RAF's "FUJIFILMCCD-RAW" and Canon CR3's `ftyp` brand `crx `.
    private var madeFacts: Facts {
        switch self {
        case .png:
            return Facts(name: "PNG", extensions: ["png"], signatures: [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]])
        case .jpeg:
            return Facts(name: "JPEG", extensions: ["jpg", "jpeg"], signatures: [[0xFF, 0xD8, 0xFF]])
        case .webp:
            return Facts(name: "WebP", extensions: ["webp"], signatures: [Self.pattern("RIFF????WEBP")])
        case .gif:
            return Facts(name: "GIF", extensions: ["gif"], signatures: [Self.pattern("GIF8?a")])
        case .tiff:
            return Facts(name: "TIFF", extensions: ["tif", "tiff"], signatures: ["II*\0", "MM\0*", "II+\0", "MM\0+"].map(Self.pattern))
        case .heif:
            return Facts(name: "HEIF", kinds: ["HEIC", "AVIF"], extensions: ["heic", "heif", "hif", "avif"],
                         signatures: ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1", "avif", "avis"].map { Self.pattern("????ftyp" + $0) })
        case .raw:
            // Only the RAWs with a signature of their own; DNG, CR2, NEF, ARW, PEF and SRW begin as
            // TIFFs do and are told apart by `CameraRAW.isRAW` (ImageInput.format).
            return Facts(name: "camera RAW", kinds: ["DNG", "CR2", "CR3", "NEF", "ARW", "ORF", "RW2", "PEF", "SRW", "RAF"],
                         extensions: ["dng", "cr2", "cr3", "nef", "nrw", "arw", "orf", "rw2", "pef", "srw", "raf"],
                         signatures: ["IIRO", "IIRS", "MMOR", "IIU\0", "FUJIFILMCCD-RAW", "????ftypcrx "].map(Self.pattern))
        }
    }

    /// A signature written as text, "?" where any byte may stand ("GIF8?a").
    private static func pattern(_ text: String) -> [UInt8?] { text.utf8.map { $0 == UInt8(ascii: "?") ? nil : $0 } }

    /// The name used in messages, e.g. "PNG", "WebP".
    public var description: String { facts.name }

    /// Every format's name, in order, the last after `conjunction`: "PNG, JPEG, WebP, GIF, TIFF or
    /// HEIF"; with `kinds`, each followed by the kinds of files it has a name for: "… or HEIF
    /// (HEIC, AVIF)".
    package static func names(_ conjunction: String = "or", kinds: Bool = false) -> String {
        let names = allCases.map { format -> String in
            let facts = format.facts
            return kinds && !facts.kinds.isEmpty ? "\(facts.name) (\(facts.kinds.joined(separator: ", ")))" : facts.name
        }
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }

    /// How many leading bytes `detect` needs to see.
    package static let detectionLength = allCases.flatMap(\.facts.signatures).map(\.count).max() ?? 0

    /// The format whose signature `head` (a file's first bytes) starts with, if any.
    package static func detect(_ head: some Collection<UInt8>) -> ImageFormat? {
        allCases.first { format in format.facts.signatures.contains { $0.count <= head.count && ImageFormat.matches($0, head) } }
    }

    /// Whether a file cut off after `head` could still be of this format: `head` agrees with a
    /// longer signature as far as it goes.
    func couldStart(_ head: some Collection<UInt8>) -> Bool {
        facts.signatures.contains { $0.count > head.count && ImageFormat.matches($0, head) }
    }

    private static func matches(_ signature: [UInt8?], _ head: some Collection<UInt8>) -> Bool {
        zip(signature, head).allSatisfy { expected, byte in expected.map { $0 == byte } ?? true }
    }

    /// Lower-case extensions that promise an image: a file so named that is not a supported image
    /// is a failure rather than silently skipped, because the user evidently meant it as input.
    package static let fileExtensions: Set<String> = Set(allCases.flatMap(\.facts.extensions))
}
