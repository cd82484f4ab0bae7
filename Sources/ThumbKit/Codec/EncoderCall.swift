import CCodecSupport

/// The shell every C encoder call shares, as `CodecReader` is for the decoders: a message buffer,
/// the output buffer the C side allocates (and this frees), and one mapping of its status to
/// `EncodeError`. Each encoder keeps only its parameters and its library's call.
enum EncoderCall {
    /// The encoded file `call` writes into the buffer it is given; `reason` shapes the library's
    /// message for `EncodeError.failed`.
    static func bytes(
        _ format: ImageFormat, reason: (String) -> String = { $0 },
        _ call: (UnsafeMutablePointer<tg_buffer>, UnsafeMutablePointer<CChar>?) -> tg_status
    ) throws(EncodeError) -> [UInt8] {
        var message = [CChar](repeating: 0, count: Int(TG_MESSAGE_SIZE))
        var buffer = tg_buffer()
        let status = message.withUnsafeMutableBufferPointer { message in call(&buffer, message.baseAddress) }
        defer { tg_buffer_free(&buffer) }
        guard status == TG_OK, let data = buffer.data else {
            throw status == TG_ERR_MEMORY ? .outOfMemory : .failed(format, reason: reason(String(cMessage: message)))
        }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
