/// Something that hands out an image's rows top to bottom, as straight RGBA sRGB samples (or RGB,
/// for an opaque image): what a streaming `Resampler` reads from. Every image decoder is one (for
/// images that are not interlaced).
///
/// Rows are requested strictly in order, each exactly once, in the sample type matching `bitDepth`;
/// the resampler stops asking once it has every row its output needs, so a source may be left
/// unfinished.
package protocol RowSource {
    /// What reading a row can fail with.
    associatedtype ReadError: Error

    /// Pixels per row; positive.
    var width: Int { get }
    /// Number of rows; positive.
    var height: Int { get }
    /// Bits per channel of the rows: 8 (`readRow(into: [UInt8])`) or 16 (`readRow(into: [UInt16])`).
    var bitDepth: Int { get }
    /// Samples per pixel of the rows: 4 (RGBA) or 3 (RGB, every pixel opaque).
    var rowChannels: Int { get }

    /// Reads the next row of an 8-bit source into `row`, resizing it to `width * rowChannels` samples.
    mutating func readRow(into row: inout [UInt8]) throws(ReadError)
    /// Reads the next row of a 16-bit source into `row`, resizing it to `width * rowChannels` samples.
    mutating func readRow(into row: inout [UInt16]) throws(ReadError)
}
