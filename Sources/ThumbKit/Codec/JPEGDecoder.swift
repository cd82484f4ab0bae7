import CLibJPEG
import Glibc

/// Reads a JPEG held in memory through libjpeg(-turbo): the header (with EXIF and ICC data) first,
/// then the whole image, optionally reduced on load (libjpeg's DCT scaling by 1/2, 1/4 or 1/8).
///
/// Baseline and progressive files, gray, YCbCr (any chroma subsampling), RGB, CMYK and YCCK are
/// read. Pixels come out as straight RGBA, 8 bits per channel, alpha 255, in the file's own colours:
/// no ICC profile is applied here (see `ImageLoader`), and CMYK is converted with the naive
/// `R = (1 − C)(1 − K)` rule (taking Adobe's inverted CMYK into account) unless the raw samples are
/// asked for. Decoding is deterministic: accurate integer IDCT, fancy upsampling.
///
/// Corrupt-data warnings do not stop decoding; they are listed in `warnings`. A file that ends
/// early is `JPEGError.truncated` unless `allowPartial` is set, in which case libjpeg fills the
/// missing part and the warning says so. A decoder reads one image once; it is not shared between
/// threads.
public final class JPEGDecoder {
    /// What the header says.
    public let info: JPEGInfo
    private let reader: OpaquePointer
    /// The encoded bytes: libjpeg reads them in place, so they live as long as the reader.
    private let ownedBytes: UnsafeMutableRawBufferPointer
    private var started = false

    /// Progressive scans allowed per image: libjpeg-turbo's own advice for untrusted files
    /// (djpeg -maxscans) is a few hundred; a real encoder writes about ten.
    public static let maxScans: UInt32 = 1000

    /// Reads the header of JPEG bytes, checking `limits` (pixels, dimensions, file size) before
    /// anything image-sized is allocated.
    public init(bytes: [UInt8], limits: DecodeLimits = .default) throws(JPEGError) {
        let owned = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        owned.copyBytes(from: bytes)
        var cLimits = tg_jpeg_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                     max_file_bytes: limits.maxFileBytes, max_scans: JPEGDecoder.maxScans)
        var reader: OpaquePointer?
        var cInfo = tg_jpeg_info()
        var message = [CChar](repeating: 0, count: Int(TG_JPEG_MESSAGE_SIZE))
        let status = message.withUnsafeMutableBufferPointer { buffer in
            tg_jpeg_open_memory(owned.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                                &cLimits, &reader, &cInfo, buffer.baseAddress)
        }
        guard status == Int32(TG_JPEG_OK), let reader else {
            owned.deallocate()
            throw JPEGDecoder.error(status: status, message: String(cMessage: message))
        }
        self.reader = reader
        self.ownedBytes = owned
        self.info = JPEGInfo(cInfo)
    }

    deinit {
        tg_jpeg_close(reader)
        ownedBytes.deallocate()
    }

    /// The TIFF structure of the first APP1 `Exif` marker (after its 6-byte identifier), if any.
    public var exif: [UInt8]? {
        var data: UnsafePointer<UInt8>?
        var size = 0
        guard tg_jpeg_exif(reader, &data, &size) != 0, let data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The ICC profile reassembled from the APP2 `ICC_PROFILE` markers, if there is a complete one.
    public var iccProfile: [UInt8]? {
        var data: UnsafePointer<UInt8>?
        var size = 0
        guard tg_jpeg_icc(reader, &data, &size) != 0, let data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// libjpeg's warnings so far, each once, in order (at most eight kept), e.g.
    /// "Corrupt JPEG data: 3 extraneous bytes before marker 0xd9".
    public var warnings: [String] {
        (0..<Int(tg_jpeg_kept_warning_count(reader))).map { String(cString: tg_jpeg_warning(reader, Int32($0))) }
    }

    /// True when the data ended before the image did (only after a partial decode).
    public var wasTruncated: Bool { tg_jpeg_was_truncated(reader) != 0 }

    /// The shrink-on-load factor for a `width` × `height` image whose whole would be resampled to
    /// `target` pixels: the largest of 1, 2, 4, 8 that still leaves at least twice the target on
    /// both axes, so the resampler (not the DCT scaling) does the final filtering. Sizes after
    /// reduction are rounded up, as libjpeg computes them.
    public static func reduction(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        var best = 1
        for factor in [2, 4, 8] {
            let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
            if w >= 2 * target.width && h >= 2 * target.height { best = factor }
        }
        return best
    }

    /// Decodes the image, reduced on load when `target` is given (see `reduction`). `target` is
    /// in stored axes: the size the whole stored image would be resampled to.
    public func decodeImage(shrinkFor target: (width: Int, height: Int)? = nil,
                            allowPartial: Bool = false) throws(JPEGError) -> JPEGDecodedImage {
        let reduction = target.map { JPEGDecoder.reduction(width: info.width, height: info.height, target: $0) } ?? 1
        let decoded = try decodeSamples(reduction: reduction, rawCMYK: false, allowPartial: allowPartial)
        return JPEGDecodedImage(image: Image(width: decoded.width, height: decoded.height, rgba8: decoded.samples),
                                reduction: reduction)
    }

    /// Decodes to 4 bytes per pixel: RGBA, or for CMYK images with `rawCMYK` the stored CMYK
    /// samples (YCCK already turned into CMYK; inverted when `info.hasAdobeMarker`).
    func decodeSamples(reduction: Int, rawCMYK: Bool, allowPartial: Bool) throws(JPEGError)
        -> (width: Int, height: Int, samples: [UInt8]) {
        precondition(!started, "a JPEGDecoder decodes once")
        started = true
        var width: UInt32 = 0, height: UInt32 = 0
        try check(tg_jpeg_start(reader, Int32(reduction), rawCMYK ? 1 : 0, allowPartial ? 1 : 0, &width, &height))
        var samples = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let status = samples.withUnsafeMutableBufferPointer { tg_jpeg_read_image(reader, $0.baseAddress) }
        try check(status)
        return (Int(width), Int(height), samples)
    }

    /// True when the bytes begin with a start-of-image marker and the next marker's 0xFF.
    public static func hasSignature(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: [0xFF, 0xD8, 0xFF])
    }

    private func check(_ status: Int32) throws(JPEGError) {
        guard status == Int32(TG_JPEG_OK) else {
            throw JPEGDecoder.error(status: status, message: String(cString: tg_jpeg_reader_message(reader)))
        }
    }

    static func error(status: Int32, message: String) -> JPEGError {
        switch Int(status) {
        case Int(TG_JPEG_ERR_NOT_JPEG): return .notJPEG(reason: message)
        case Int(TG_JPEG_ERR_TRUNCATED): return .truncated
        case Int(TG_JPEG_ERR_LIMIT): return .limitExceeded(reason: message)
        case Int(TG_JPEG_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(reason: message)
        }
    }
}

extension JPEGInfo {
    init(_ c: tg_jpeg_info) {
        let space: ColorSpace
        switch Int(c.color_space) {
        case Int(TG_JPEG_CS_GRAY): space = .gray
        case Int(TG_JPEG_CS_RGB): space = .rgb
        case Int(TG_JPEG_CS_CMYK): space = .cmyk
        case Int(TG_JPEG_CS_YCCK): space = .ycck
        default: space = .yCbCr
        }
        self.init(width: Int(c.width), height: Int(c.height), components: Int(c.components), colorSpace: space,
                  progressive: c.progressive != 0, hasAdobeMarker: c.adobe_marker != 0)
    }
}
