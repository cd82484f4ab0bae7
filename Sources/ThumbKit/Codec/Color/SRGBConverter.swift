import CLibLCMS
import Synchronization

/// The conversion from a source's colours to sRGB (`ColorManagement`'s policy), built once by
/// lcms2 and applied to RGBA pixels as they come: to a whole decoded image, or to a streamed
/// image's rows. Pixel for pixel the same either way, so a streamed image's rows are the rows of
/// the converted whole image.
///
/// Building a transform samples the profile's tone curves (thousands of `pow` calls), which takes
/// longer than converting a small icon, and a batch meets the same few profiles again and again
/// (an icon theme's, a camera's, a gAMA of 0.55). So a converter no image uses any more goes back
/// to a small pool (`idle`) and the next image with the same profile and depth takes it from there.
/// One image at a time uses a converter: lcms2's one-pixel cache inside it is never shared between
/// threads, and it only ever holds a value the transform computed, so the pixels are the same as
/// from a new one.
final class SRGBConverter {
    /// What `make` found.
    enum Made {
        /// The source is sRGB (or effectively so): nothing to convert.
        case none
        /// The source's colours cannot be applied: the pixels stay as they are, with this warning.
        case failed(warning: String)
        case converter(SRGBConverter)
    }

    /// What a transform converts: from this profile, at this depth.
    struct Kind: Equatable {
        var profile: [UInt8]
        var sixteenBit: Bool
    }

    /// An lcms2 converter in the pool: owned by the pool alone until taken.
    private struct Idle: @unchecked Sendable {
        var kind: Kind
        var handle: OpaquePointer
    }

    /// Converters not in use, the least recently returned first.
    private static let idle = Mutex<[Idle]>([])
    /// Converters the pool keeps: a batch meets a handful of profiles at once.
    static let poolCapacity = 8

    private let handle: OpaquePointer
    let kind: Kind
    /// Samples of 16 bits (RGBA16) rather than 8 (RGBA8).
    var sixteenBit: Bool { kind.sixteenBit }

    private init(handle: OpaquePointer, kind: Kind) {
        self.handle = handle
        self.kind = kind
    }

    deinit {
        let evicted = Self.idle.withLock { pool -> Idle? in
            pool.append(Idle(kind: kind, handle: handle))
            return pool.count > Self.poolCapacity ? pool.removeFirst() : nil
        }
        if let evicted { tg_cms_converter_close(evicted.handle) }
    }

    /// The converter for RGBA pixels of 8 or 16 bits a sample from `source`'s colours.
    static func make(from source: ColorSource, sixteenBit: Bool) -> Made {
        let (profile, warning) = ColorManagement.profile(for: source)
        if let warning { return .failed(warning: warning) }
        guard let profile else { return .none }
        let kind = Kind(profile: profile, sixteenBit: sixteenBit)
        let pooled = idle.withLock { pool -> Idle? in
            guard let at = pool.lastIndex(where: { $0.kind == kind }) else { return nil }
            return pool.remove(at: at)
        }
        if let pooled { return .converter(SRGBConverter(handle: pooled.handle, kind: kind)) }
        var message = [CChar](repeating: 0, count: Int(TG_CMS_MESSAGE_SIZE))
        var handle: OpaquePointer?
        let status = profile.withUnsafeBufferPointer { icc in
            message.withUnsafeMutableBufferPointer { text in
                tg_cms_converter_open(icc.baseAddress, icc.count, Int32(sixteenBit ? TG_CMS_RGBA16 : TG_CMS_RGBA8), &handle,
                                      text.baseAddress)
            }
        }
        guard status == Int32(TG_CMS_OK), let handle else { return .failed(warning: ColorManagement.warning(status, message)) }
        return .converter(SRGBConverter(handle: handle, kind: kind))
    }

    /// How many idle converters the pool holds for `kind` (for tests).
    static func pooled(_ kind: Kind) -> Int { idle.withLock { pool in pool.count(where: { $0.kind == kind }) } }

    /// Converts the first `pixels` RGBA pixels of `samples` into `out`, alpha copied: 8-bit samples
    /// for an 8-bit converter, 16-bit for a 16-bit one.
    func convert<Sample: FixedWidthInteger & UnsignedInteger>(_ samples: [Sample], into out: inout [Sample], pixels: Int) {
        precondition(Sample.bitWidth == (sixteenBit ? 16 : 8) && samples.count >= 4 * pixels && out.count >= 4 * pixels,
                     "RGBA pixels of the converter's depth")
        samples.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in tg_cms_converter_apply(handle, src.baseAddress, dst.baseAddress, pixels) }
        }
    }
}

/// A streaming decoder's rows, converted from the source's colours to sRGB as they are read (the
/// decoder must have been started). Rows of three samples go through the converter as RGBA with
/// opaque alpha, which is how the whole image would have held them. When the source's colours
/// cannot be applied the rows pass through as they are and `warning` says why, as converting the
/// whole image would have.
struct SRGBRows: RowSource {
    private var decoder: any ImageDecoder
    private let converter: SRGBConverter?
    /// Why the rows are left in the source's colours, when they are.
    let warning: String?
    /// RGBA rows going into and coming out of the converter.
    private var into8: [UInt8] = [], out8: [UInt8] = []
    private var into16: [UInt16] = [], out16: [UInt16] = []

    init(_ decoder: any ImageDecoder, from source: ColorSource) {
        self.decoder = decoder
        switch SRGBConverter.make(from: source, sixteenBit: decoder.bitDepth > 8) {
        case .none:
            converter = nil
            warning = nil
        case .failed(let reason):
            converter = nil
            warning = reason
        case .converter(let made):
            converter = made
            warning = nil
        }
    }

    var width: Int { decoder.width }
    var height: Int { decoder.height }
    var bitDepth: Int { decoder.bitDepth }
    var rowChannels: Int { decoder.rowChannels }

    mutating func readRow(into row: inout [UInt8]) throws(DecodeError) {
        try decoder.readRow(into: &row)
        guard let converter else { return }
        SRGBRows.convert(&row, channels: rowChannels, pixels: width, into: &into8, out: &out8, through: converter)
    }

    mutating func readRow(into row: inout [UInt16]) throws(DecodeError) {
        try decoder.readRow(into: &row)
        guard let converter else { return }
        SRGBRows.convert(&row, channels: rowChannels, pixels: width, into: &into16, out: &out16, through: converter)
    }

    /// Converts one row in place: RGBA rows directly, RGB rows through RGBA buffers.
    private static func convert<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: inout [Sample], channels: Int, pixels: Int, into: inout [Sample], out: inout [Sample],
        through converter: SRGBConverter
    ) {
        if out.count != 4 * pixels { out = [Sample](repeating: 0, count: 4 * pixels) }
        if channels == 4 {
            converter.convert(row, into: &out, pixels: pixels)
            swap(&row, &out)
            return
        }
        if into.count != 4 * pixels { into = [Sample](repeating: .max, count: 4 * pixels) }
        for p in 0..<pixels {
            into[4 * p] = row[3 * p]
            into[4 * p + 1] = row[3 * p + 1]
            into[4 * p + 2] = row[3 * p + 2]
        }
        converter.convert(into, into: &out, pixels: pixels)
        for p in 0..<pixels {
            row[3 * p] = out[4 * p]
            row[3 * p + 1] = out[4 * p + 1]
            row[3 * p + 2] = out[4 * p + 2]
        }
    }
}
