import CCodecSupport

/// The shell every decoder reads through, the same for every format: it makes a byte source over
/// the opened input (a file's descriptor, or bytes lent for each call), opens the decoder's C
/// reader over it, lends the bytes for each call that reads, and turns a failed call's status
/// into a `DecodeError` in one place. A decoder holds one and makes its library's calls through
/// it; the C reader and the source are freed with it.
final class CodecReader {
    /// The C reader the decoder's calls take.
    let handle: OpaquePointer
    private let source: OpaquePointer
    private let input: ImageInput
    private let close: (OpaquePointer?) -> Void
    private let format: ImageFormat

    /// Opens the C reader of `Decoder`'s format over `input`, once the source's size passed the
    /// checks every format shares (no bytes at all, more than the byte limit): `open` is the C
    /// module's open function, which fills `info`, and `close` its close function.
    init<Decoder: ImageDecoder, Info>(_ decoder: Decoder.Type, input: ImageInput, limits: DecodeLimits, info: inout Info,
                                      open: (OpaquePointer, UnsafePointer<tg_limits>, UnsafeMutablePointer<OpaquePointer?>,
                                             UnsafeMutablePointer<Info>) -> tg_status,
                                      close: @escaping (OpaquePointer?) -> Void) throws(DecodeError) {
        guard let source = input.makeSource() else { throw .outOfMemory }
        var cLimits = tg_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                max_file_bytes: limits.maxFileBytes, max_memory: limits.maxMemory,
                                max_chunk_bytes: limits.maxChunkBytes, max_chunks: limits.maxAncillaryChunks,
                                max_metadata_bytes: UInt64(EmbeddedMetadata.maximumBytes))
        var reader: OpaquePointer?
        var status = tg_source_begin(source, &cLimits)
        if status == TG_OK { status = input.lend(to: source) { open(source, &cLimits, &reader, &info) } }
        guard status == TG_OK, let reader else {
            let error = CodecReader.error(status, source: source, format: Decoder.format)
            close(reader)
            tg_source_free(source)
            throw error
        }
        (handle, self.source, self.input, self.close, format) = (reader, source, input, close, Decoder.format)
    }

    deinit {
        close(handle)
        tg_source_free(source)
    }

    /// Runs a call that may read, with the bytes lent; a failed call throws its error.
    func call(_ body: (OpaquePointer) -> tg_status) throws(DecodeError) {
        let status = lending(body)
        guard status == TG_OK else { throw failure(status) }
    }

    /// Runs a call that may read but reports no failure (metadata a library hands out or not),
    /// with the bytes lent.
    func lending<T>(_ body: (OpaquePointer) -> T) -> T {
        input.lend(to: source) { body(handle) }
    }

    /// Reads one row into `row`, resized to `count` samples first: `read` gets the C reader and
    /// the row's storage (the one place a row's memory is handed to C, once a row).
    func read<Sample: FixedWidthInteger>(into row: inout [Sample], count: Int,
                                         _ read: (OpaquePointer, UnsafeMutablePointer<Sample>) -> tg_status) throws(DecodeError) {
        if row.count != count { row = [Sample](repeating: 0, count: count) }
        let status = row.withUnsafeMutableBufferPointer { out in lending { read($0, out.baseAddress!) } }
        guard status == TG_OK else { throw failure(status) }
    }

    /// Reads a whole image of `count` samples: `read` gets the C reader and the image's storage.
    func image<Sample: Numeric>(count: Int,
                                          _ read: (OpaquePointer, UnsafeMutablePointer<Sample>) -> tg_status) throws(DecodeError) -> [Sample] {
        var samples = [Sample](repeating: 0, count: count)
        let status = samples.withUnsafeMutableBufferPointer { out in lending { read($0, out.baseAddress!) } }
        guard status == TG_OK else { throw failure(status) }
        return samples
    }

    private func failure(_ status: tg_status) -> DecodeError {
        CodecReader.error(status, source: source, format: format)
    }

    /// The one mapping from a C module's status (its message and limit in the source) to the error.
    private static func error(_ status: tg_status, source: OpaquePointer, format: ImageFormat) -> DecodeError {
        let message = String(cString: tg_source_message(source))
        switch status {
        case TG_ERR_UNREADABLE: return .unreadable(reason: message)
        case TG_ERR_EMPTY: return .empty
        case TG_ERR_UNRECOGNISED: return .unrecognised
        case TG_ERR_TRUNCATED: return .truncated
        case TG_ERR_LIMIT: return LimitExceeded(tg_source_limit(source)).map(DecodeError.limitExceeded) ?? .corrupt(format, reason: message)
        case TG_ERR_MEMORY: return .outOfMemory
        case TG_ERR_UNSUPPORTED: return .unsupported(format, reason: message)
        default: return .corrupt(format, reason: message)
        }
    }
}
