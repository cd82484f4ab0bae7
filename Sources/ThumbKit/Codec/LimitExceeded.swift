import CCodecSupport

/// A limit an input went over, with the values involved.
///
/// A limit is data, not text: the library words the message without naming any option, and the
/// command line adds its own flag (`--max-pixels`, `--max-file-bytes`) from `limit`.
public struct LimitExceeded: Sendable, Hashable {
    /// Which limit.
    public enum Limit: String, Sendable, Hashable {
        /// `DecodeLimits.maxPixels` for a source: `actual` is its width × height.
        case pixels
        /// `DecodeLimits.maxDimension`: `actual` is the source's longer side.
        case dimension
        /// `DecodeLimits.maxFileBytes`: `actual` is how many bytes were seen (at least).
        case fileBytes
        /// `JPEGDecoder.maxScans`, the progressive scans a JPEG may have: `actual` is the scans seen.
        case scans
        /// `DecodeLimits.maxPixels` for an output canvas: `actual` is its width × height.
        case outputPixels
        /// `DecodeLimits.maxMemory`: `actual` is the bytes the job planned to hold (`MemoryPlan`).
        case memory
    }

    /// Which limit was exceeded.
    public let limit: Limit
    /// The image's (or for `outputPixels`, the thumbnail's) width, when known; else 0.
    public let width: Int
    /// The height that goes with `width`; else 0.
    public let height: Int
    /// The value that was too large.
    public let actual: UInt64
    /// The largest value allowed.
    public let allowed: UInt64

    /// A limit hit with the values involved.
    public init(limit: Limit, width: Int = 0, height: Int = 0, actual: UInt64, allowed: UInt64) {
        self.limit = limit
        self.width = width
        self.height = height
        self.actual = actual
        self.allowed = allowed
    }

    /// One line, lower-case, naming no option: e.g. "image is 32x32 (1024 pixels), above the limit
    /// of 1023 pixels".
    public var message: String {
        switch limit {
        case .pixels:
            return "image is \(width)x\(height) (\(actual) pixels), above the limit of \(allowed) pixels"
        case .outputPixels:
            return "thumbnail would be \(width)x\(height) (\(actual) pixels), above the limit of \(allowed) pixels"
        case .dimension:
            return "image is \(width)x\(height), above the limit of \(allowed) pixels per side"
        case .fileBytes:
            return "file is larger than the limit of \(allowed) bytes"
        case .scans:
            return "progressive JPEG has more than \(allowed) scans"
        case .memory:
            return "image is \(width)x\(height) and needs \(LimitExceeded.size(actual)) of memory, above the limit of "
                + LimitExceeded.size(allowed)
        }
    }

    /// Bytes as people read them: "512 MiB", "1.5 GiB", "900 KiB"; exact bytes below 1 KiB.
    static func size(_ bytes: UInt64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes), unit = -1
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        if unit < 0 { return "\(bytes) bytes" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) \(units[unit])" : "\(rounded) \(units[unit])"
    }

    /// The limit a C codec module reported, if any.
    init?(_ hit: tg_limit_hit) {
        let limit: Limit
        switch Int(hit.kind) {
        case Int(TG_LIMIT_PIXELS): limit = .pixels
        case Int(TG_LIMIT_DIMENSION): limit = .dimension
        case Int(TG_LIMIT_FILE_BYTES): limit = .fileBytes
        case Int(TG_LIMIT_SCANS): limit = .scans
        case Int(TG_LIMIT_MEMORY): limit = .memory
        default: return nil
        }
        self.init(limit: limit, width: Int(hit.width), height: Int(hit.height), actual: hit.actual, allowed: hit.allowed)
    }
}
