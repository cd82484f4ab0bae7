@testable import ThumbKit

/// A decoder of a made-up image that works until the point a test names and fails there, so the
/// pipeline's every failure path can be driven without a damaged file for each: opening (the
/// header), `start`, row N of a stream, `finish`, or the whole-image decode.
final class MockDecoder: ImageDecoder {
    /// Where it fails.
    enum FailurePoint: Sendable, Hashable, CustomStringConvertible {
        /// Opening: the header cannot be read.
        case header
        case start
        /// Reading the row of this index (from 0) of a stream.
        case row(Int)
        /// `finish`, after the rows a stream needed.
        case finish
        /// The whole-image decode.
        case image

        var description: String {
            switch self {
            case .header: return "the header"
            case .start: return "start"
            case .row(let index): return "row \(index)"
            case .finish: return "finish"
            case .image: return "the image"
            }
        }

        /// The error the decoder fails with there: one line, as a library's would be.
        var error: DecodeError { .corrupt(.png, reason: "mock failure at \(self)") }
    }

    /// It passes for a PNG decoder: what the plan asks of it is what it asks of libpng's.
    static let format = ImageFormat.png
    static let libraryVersion = "mock"

    let header: ImageHeader
    let workingBytes: UInt64 = 0
    let rowChannels = 4
    let failure: FailurePoint?
    private(set) var started = false
    private(set) var rowsRead = 0
    private(set) var finished = false
    private(set) var decodedWhole = false

    /// Opaque 8-bit RGBA, a gradient, so a resampled thumbnail shows every row that went in.
    static func image(width: Int, height: Int) -> Image {
        var samples: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { samples += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), UInt8((x * y) % 256), 255] }
        }
        return Image(width: width, height: height, rgba8: samples)
    }

    init(width: Int = 40, height: Int = 30, failingAt failure: FailurePoint? = nil) throws(DecodeError) {
        if failure == .header { throw failure!.error }
        self.failure = failure
        header = ImageHeader(format: .png, storedWidth: width, storedHeight: height, orientation: .topLeft, bitDepth: 8,
                             hasAlpha: false, colorSource: .sRGB, scanOrder: .sequential, details: .png(colorType: .rgb))
    }

    /// Never opened from a source: tests make it.
    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        preconditionFailure("a MockDecoder is made by a test, not opened from a source")
    }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!started, "a decoder starts once")
        started = true
        if failure == .start { throw failure!.error }
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        precondition(started && !decodedWhole, "rows after start, instead of the whole image")
        if failure == .row(rowsRead) { throw failure!.error }
        let length = width * 4
        row = Array(Self.image(width: width, height: height).rgba8[rowsRead * length..<(rowsRead + 1) * length])
        rowsRead += 1
    }

    func finish() throws(DecodeError) {
        finished = true
        if failure == .finish { throw failure!.error }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        precondition(started && rowsRead == 0, "the whole image after start, instead of rows")
        decodedWhole = true
        if failure == .image { throw failure!.error }
        return .rgba(Self.image(width: width, height: height))
    }
}
