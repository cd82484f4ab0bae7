/// A decoder whose library hands out whole images only (libwebp): no rows, straight 8-bit RGBA,
/// at full size unless the decoder overrides `start` (WebP's scaling). The decode plan gives its
/// images the whole-image path, so the row-reading half of `ImageDecoder` is never called.
protocol WholeImageDecoder: ImageDecoder {}

extension WholeImageDecoder {
    static var streamsRows: Bool { false }
    var rowChannels: Int { 4 }
    /// Nothing to choose: there is one size and one way to decode.
    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(request.reduction == 1 && request.scaledSize == nil && !request.streams,
                     "\(Self.format) images are decoded whole, at full size")
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        preconditionFailure("\(Self.format) images are decoded whole")
    }

    func readRow(into row: inout [UInt16]) throws(DecodeError) {
        preconditionFailure("\(Self.format) images are decoded whole")
    }

    /// Whatever the image needed was read when it was decoded.
    func finish() throws(DecodeError) {}
}
