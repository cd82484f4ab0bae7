import CLibDeflate
import CThumbKernels

/// Writes 8-bit-per-channel PNGs, deterministically: rows filtered here, compressed by libdeflate.
///
/// The same pixels and options always give the same bytes for a given libdeflate: no tIME or text
/// chunks, no interlacing, a fixed compression level, and a fixed filter choice (none for palette
/// and sub-byte gray; otherwise, per row, the filter whose output has the smallest sum of
/// magnitudes, the PNG specification's heuristic). The image data is one `IDAT` chunk.
/// 16-bit images are written at 8 bits, rounded as `(v * 255 + 32767) / 65535`.
public struct PNGEncoder: Sendable {
    /// Which colour type the file uses.
    public enum ColorTypeChoice: String, Sendable, Hashable, CaseIterable {
        /// The smallest lossless type: gray, palette, gray+alpha, RGB or RGBA.
        case automatic = "auto"
        /// Always 8-bit RGBA (`--color-type rgba`), for consumers that expect one layout.
        case rgba
    }

    /// The compression levels libdeflate takes: 0 (stored, no compression) to 12 (smallest).
    public static let compressionLevels = Int(TG_DEFLATE_MIN_LEVEL)...Int(TG_DEFLATE_MAX_LEVEL)

    /// libdeflate level thumbgen uses unless told otherwise: 4.
    ///
    /// Measured on the 406 thumbnails of the bench's Debian icons (8–256 px, mostly RGBA, 7.9 MB
    /// of filtered rows): level 4 takes half the time zlib's level 4 (thumbgen's level before
    /// libdeflate) took, for 2% less data. Thumbnails are small and written often (batch jobs,
    /// build steps), so encoding time matters more than the last few percent: 6 gives 2% less
    /// data for 1.6× the time, 9 4% less for 9×.
    public static let defaultCompressionLevel = 4

    /// Which PNG colour type to write; `.automatic` picks the smallest lossless one.
    public var colorType: ColorTypeChoice
    /// libdeflate level, one of `compressionLevels`; `encode` throws for any other.
    public var compressionLevel: Int
    /// Adds an `sRGB` chunk saying the samples are sRGB.
    public var marksSRGB: Bool
    /// An ICC profile written as an `iCCP` chunk (in place of `sRGB`). One that does not fit the
    /// written colour type (an RGB profile on a gray image) or is not a well-formed profile is
    /// left out: the pixels are still right, only unlabelled.
    public var iccProfile: [UInt8]? = nil

    /// An encoder with the given settings (checked when encoding, so no argument can trap).
    public init(colorType: ColorTypeChoice = .automatic, compressionLevel: Int = PNGEncoder.defaultCompressionLevel, marksSRGB: Bool = false) {
        self.colorType = colorType
        self.compressionLevel = compressionLevel
        self.marksSRGB = marksSRGB
    }

    /// The PNG file bytes for an image.
    public func encode(_ image: Image) throws(EncodeError) -> [UInt8] {
        let layout = colorType == .rgba ? PNGLayout.rgba(image) : PNGLayout.smallest(for: image)
        return try encode(layout, width: image.width, height: image.height)
    }

    func encode(_ layout: PNGLayout, width: Int, height: Int) throws(EncodeError) -> [UInt8] {
        guard Self.compressionLevels.contains(compressionLevel) else {
            throw .failed(.png, reason: "compression level \(compressionLevel) is not \(Self.compressionLevels.lowerBound)…\(Self.compressionLevels.upperBound)")
        }
        guard width > 0, height > 0, width <= PNGFile.maxChunkLength, height <= PNGFile.maxChunkLength else {
            throw .failed(.png, reason: "a PNG cannot be \(width)×\(height)")
        }
        var file = PNGFile()
        file.append("IHDR", PNGFile.bigEndian(UInt32(width)) + PNGFile.bigEndian(UInt32(height))
                    + [UInt8(layout.bitDepth), UInt8(layout.colorType.rawValue), 0, 0, 0])
        if let profile = iccProfile, ICCProfileFit.fits(profile, colorType: layout.colorType) {
            // Keyword "icc", its NUL, compression method 0 (zlib), the compressed profile.
            file.append("iCCP", Array("icc".utf8) + [0, 0] + (try compressed(profile)))
        } else if marksSRGB {
            file.append("sRGB", [0])  // perceptual rendering intent
        }
        if layout.colorType == .palette {
            file.append("PLTE", layout.palette)
            if !layout.transparency.isEmpty { file.append("tRNS", layout.transparency) }
        }
        let data = try compressed(try PNGScanlines.filtered(layout, width: width, height: height))
        guard data.count <= PNGFile.maxChunkLength else {
            throw .failed(.png, reason: "the image data exceeds the largest PNG chunk")
        }
        file.append("IDAT", data)
        file.append("IEND", [])
        return file.bytes
    }

    /// `data` as a zlib stream at this encoder's level.
    private func compressed(_ data: [UInt8]) throws(EncodeError) -> [UInt8] {
        let bound = tg_zlib_bound(data.count)
        var message = [CChar](repeating: 0, count: Int(TG_MESSAGE_SIZE))
        var status = TG_OK
        let stream = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var written = 0
            status = data.withUnsafeBufferPointer { data in
                message.withUnsafeMutableBufferPointer { message in
                    tg_zlib_compress(Int32(compressionLevel), data.baseAddress, data.count, buffer.baseAddress, bound,
                                     &written, message.baseAddress)
                }
            }
            count = status == TG_OK ? written : 0
        }
        guard status == TG_OK else {
            throw status == TG_ERR_MEMORY ? .outOfMemory : .failed(.png, reason: String(cMessage: message))
        }
        return stream
    }
}

/// A PNG file being put together: the signature, then chunks, each with its length and CRC.
struct PNGFile {
    /// The longest chunk data a PNG allows (2³¹ − 1 bytes).
    static let maxChunkLength = Int(Int32.max)

    private(set) var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Appends a chunk of `type` (four ASCII letters) holding `data`.
    mutating func append(_ type: String, _ data: [UInt8]) {
        let start = bytes.count
        bytes.reserveCapacity(start + data.count + 12)
        bytes += Self.bigEndian(UInt32(data.count))
        bytes += type.utf8
        bytes += data
        // The CRC covers the type and the data.
        let crc = bytes.withUnsafeBufferPointer { tg_crc32(0, $0.baseAddress! + start + 4, data.count + 4) }
        bytes += Self.bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The image data of a PNG before compression: each row's filter type byte, then the row's samples
/// packed to the bit depth and filtered.
enum PNGScanlines {
    static func filtered(_ layout: PNGLayout, width: Int, height: Int) throws(EncodeError) -> [UInt8] {
        let rows = layout.bitDepth < 8 ? packed(layout, width: width, height: height) : layout.samples
        let rowBytes = rows.count / height
        // Filtering does not pay on palette indexes and packed gray (the PNG specification's advice).
        let adaptive = layout.colorType != .palette && layout.bitDepth == 8
        var filtered = true
        let scanlines = [UInt8](unsafeUninitializedCapacity: height * (rowBytes + 1)) { buffer, count in
            filtered = rows.withUnsafeBufferPointer { rows in
                tk_png_filter_rows(rows.baseAddress, rowBytes, height, max(1, layout.samplesPerPixel * layout.bitDepth / 8),
                                   adaptive ? 1 : 0, buffer.baseAddress) == 1
            }
            count = filtered ? buffer.count : 0
        }
        guard filtered else { throw .outOfMemory }
        return scanlines
    }

    /// Samples of one byte each packed into rows at 1, 2 or 4 bits, the first sample in the high
    /// bits of each byte; a row's last byte is padded with zero bits.
    static func packed(_ layout: PNGLayout, width: Int, height: Int) -> [UInt8] {
        let depth = layout.bitDepth
        let perByte = 8 / depth
        let rowBytes = (width + perByte - 1) / perByte
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        layout.samples.withUnsafeBufferPointer { samples in
            rows.withUnsafeMutableBufferPointer { rows in
                for y in 0..<height {
                    for x in 0..<width {
                        let shift = 8 - depth * (x % perByte + 1)
                        rows[y * rowBytes + x / perByte] |= samples[y * width + x] << shift
                    }
                }
            }
        }
        return rows
    }
}

/// Whether an ICC profile can label a PNG: a well-formed header and tag table (the checks libpng
/// makes before writing an `iCCP` chunk), and a colour space that matches the colour type
/// (`GRAY` for gray images, `RGB ` for the others).
enum ICCProfileFit {
    static func fits(_ profile: [UInt8], colorType: PNGColorType) -> Bool {
        let headerBytes = 128
        guard profile.count >= headerBytes + 4 else { return false }
        func word(_ offset: Int) -> Int {
            profile[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        guard word(0) == profile.count, profile[36..<40].elementsEqual("acsp".utf8) else { return false }
        let wanted = colorType == .gray || colorType == .grayAlpha ? "GRAY" : "RGB "
        guard profile[16..<20].elementsEqual(wanted.utf8) else { return false }
        // The profile connection space is XYZ or Lab.
        guard profile[20..<24].elementsEqual("XYZ ".utf8) || profile[20..<24].elementsEqual("Lab ".utf8) else { return false }
        // Every tag's data lies inside the profile.
        let tags = word(headerBytes)
        guard tags <= (profile.count - headerBytes - 4) / 12 else { return false }
        for tag in 0..<tags {
            let entry = headerBytes + 4 + tag * 12
            let offset = word(entry + 4), size = word(entry + 8)
            guard offset <= profile.count, size <= profile.count - offset else { return false }
        }
        return true
    }
}
