/// The memory one thumbnail job will hold at its peak, worked out from the header and the decode
/// plan before any pixel is decoded, so an image that would need more than the budget
/// (`DecodeLimits.maxMemory`) is refused instead of allocated. Swift stops the process when an
/// allocation fails, so a failure has to be prevented; it cannot be caught.
///
/// For a source stored as `W`×`H` and decoded as `w`×`h` (reduced or scaled on load, or not), with `d`
/// bytes per sample (2 for sources of more than 8 bits, else 1), and outputs whose canvases have `O₁`, `O₂`, …
/// pixels and widths `o₁`, `o₂`, …, the planned bytes are
///
///     9 MiB                                 codec state: one ancillary chunk or profile, read buffers
///   + 4·d·w·h · (1, or 2 when rotated or   the decoded image (whole-image path only), and the
///                colour-converted)          copy a rotation or conversion makes
///   + 2·c·W·H   (progressive JPEG only)     libjpeg's coefficients, c components at full size
///   + F + 4·W·H·k (WebP only)               the file's data F, which libwebp decodes from
///                                           memory, and libwebp's working copies (k = 1 for
///                                           a lossless image, 2 for an animation, 3 for one
///                                           of one frame, decoded whole even if planned
///                                           scaled; else 0), at full size
///   + 64·w                                  one source row, as samples and as float
///   + Σ 16·rᵢ·oᵢ                            each scale's filter window of rᵢ rows
///   + Σ 40·Oᵢ                               each scale's float canvas, its 8-bit copy and PNG
///
/// Otherwise the file does not count: decoders read it a chunk at a time and stop at the end of the
/// image data. `Tests/ThumbKitTests/Thumbnail/MemoryPlanTests.swift` holds the plan against the
/// peak the process really reaches.
struct MemoryPlan {
    /// The codec's own state: one ancillary chunk or ICC profile (`DecodeLimits.maxChunkBytes` at
    /// its default), libpng's and zlib's buffers, libdeflate's compressor, libjpeg's 64 KiB read chunk and row buffers.
    static let codecState: UInt64 = 9 << 20

    /// The planned peak in bytes.
    let bytes: UInt64

    /// The plan for `fits` (one per scale) of a source decoded as `decoding` says.
    /// `decoderBytes` is the decoder's own `workingBytes`.
    init(header: ImageHeader, decoding: DecodePlan, fits: [FitPlan], kernel: ResamplingKernel, decoderBytes: UInt64) {
        let decoded = decoding.decodedStoredSize
        let w = UInt64(decoded.width), h = UInt64(decoded.height)
        let d: UInt64 = header.bitDepth > 8 ? 2 : 1
        var total = MemoryPlan.codecState
        if !decoding.streams {
            let copies: UInt64 = decoding.orientation != .topLeft || decoding.colour != .none ? 2 : 1
            total += 4 * d * w * h * copies
        } else if decoding.colour != .none {
            // `SRGBRows`' RGBA rows into and out of the converter.
            total += 2 * 4 * d * w
        }
        total += decoderBytes
        // The metadata blocks the header holds (up to `EmbeddedMetadata.maximumBytes` each).
        total += UInt64((header.metadata.xmp?.count ?? 0) + (header.metadata.exif?.count ?? 0))
        total += 64 * w
        let uprightHeight = decoding.orientation.swapsAxes ? w : h
        for fit in fits {
            let rows = MemoryPlan.windowRows(sourceRows: Double(uprightHeight) * fit.region.height / Double(decoding.height),
                                             outputRows: fit.height, kernel: kernel)
            total += 16 * rows * UInt64(fit.width)
            total += 40 * UInt64(fit.canvasWidth) * UInt64(fit.canvasHeight)
        }
        bytes = total
    }

    /// An upper bound on the rows a vertical pass keeps: the kernel's support on both sides,
    /// widened by the reduction ratio, plus the partial rows at either end.
    static func windowRows(sourceRows: Double, outputRows: Int, kernel: ResamplingKernel) -> UInt64 {
        let ratio = max(1, sourceRows / Double(max(outputRows, 1)))
        return UInt64((2 * kernel.support * ratio).rounded(.up)) + 3
    }

    /// The refusal when the plan does not fit `budget` bytes (0: no budget).
    func check(budget: UInt64, header: ImageHeader) throws(DecodeError) {
        guard budget != 0, bytes > budget else { return }
        throw .limitExceeded(LimitExceeded(limit: .memory, width: header.width, height: header.height,
                                           actual: bytes, allowed: budget))
    }
}
