import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// GIF, TIFF and HEIF rows streamed straight into the resampler: the same pixels as the
/// whole-image decode, the same thumbnails to the byte, and the same failures on a damaged file
/// (the rows the resampler did not need are still read, by `finish`).
@Suite struct StreamedRowsTests {
    static let files = GIFDecoderTests.names.map { "gif/\($0).gif" } + TIFFDecoderTests.names.map { "tiff/\($0).tif" }
        + HEIFDecoderTests.files.map { "heif/\($0)" }

    static func bytes(_ file: String) -> [UInt8] { Fixtures.bytes(file) }

    /// Every row a decoder streams, widened to RGBA; nil when the image does not stream.
    static func streamedImage(_ bytes: [UInt8]) throws(DecodeError) -> Image? {
        var decoder = try ImageSource.bytes(bytes).openDecoder(limits: .default)
        guard type(of: decoder).streams(decoder.header) else { return nil }
        try decoder.start(DecodeRequest(streams: true))
        let image = try RowSourceImage.read(&decoder)
        try decoder.finish()
        return image
    }

    /// Which layouts stream: GIF always (an interlaced frame from its kept indexes), HEIF always
    /// (rows interleaved from libheif's planes); TIFF when
    /// 8-bit RGB or gray scanlines in strips are its pixels.
    @Test func theLayoutsThatStream() throws {
        for file in Self.files {
            let decoder = try ImageSource.bytes(Self.bytes(file)).openDecoder(limits: .default)
            let streams = type(of: decoder).streams(decoder.header)
            // jpeg-ycbcr.tif is JPEG-compressed RGB (photometric RGB), which libtiff decodes by scanline.
            let expected = file.hasPrefix("gif/") || file.hasPrefix("heif/") || ["rgb", "gray-deflate", "orientation-6", "icc", "two-pages", "jpeg-ycbcr"]
                .contains { file == "tiff/\($0).tif" }
            #expect(streams == expected, "\(file)")
        }
    }

    @Test(arguments: files)
    func streamedRowsAreTheWholeDecodesPixels(file: String) throws {
        let bytes = Self.bytes(file)
        guard let streamed = try Self.streamedImage(bytes) else { return }
        #expect(streamed == (try ImageSource.bytes(bytes).decodeAsStored()), "\(file)")
    }

    /// One scale streams; two decode whole and render each from the image: the @1x PNGs are the
    /// same bytes, and (for an upright file without colour work) the single scale did stream.
    @Test(arguments: files)
    func streamedThumbnailsAreTheWholeDecodesBytes(file: String) throws {
        let bytes = Self.bytes(file)
        for size in [ThumbnailSize(width: 30, height: 30), ThumbnailSize(width: 25, height: 40, mode: .cover)] {
            let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: size))
            let single = try thumbnailer.thumbnails(of: .bytes(bytes), scales: [1])
            let both = try thumbnailer.thumbnails(of: .bytes(bytes), scales: [1, 2])
            #expect(single[0].bytes == both[0].bytes, "\(file) \(size)")
        }
        let plan = try DecodeTestPlan.plan(bytes, options: ThumbnailOptions(size: ThumbnailSize(width: 30, height: 30)))
        if try Self.streamedImage(bytes) != nil, plan.orientation == .topLeft, plan.colour == .none {
            #expect(plan.streams, "\(file)")
        }
    }

    /// A cut-off copy fails the same way streamed as decoded whole, wherever it is cut (the tail
    /// the thumbnail did not need included).
    @Test(arguments: ["gif/opaque.gif", "gif/interlaced.gif", "gif/transparent.gif", "tiff/rgb.tif", "tiff/gray-deflate.tif",
                      "heif/opaque.heic", "heif/alpha.avif"])
    func damagedFilesFailTheSameWayStreamed(file: String) {
        let bytes = Self.bytes(file)
        for cut in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 47)) {
            let part = Array(bytes.prefix(cut))
            let whole = DecodeErrorProbe.error(of: part)
            let streamed: DecodeError?
            do { _ = try Self.streamedImage(part); streamed = nil } catch { streamed = error }
            #expect(streamed == whole, "\(file) cut at \(cut)")
        }
    }
}
