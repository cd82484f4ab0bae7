import Foundation
import Testing
import TestSupport
@testable import ThumbKit

/// A decoder that fails at each point it can fail (`MockDecoder`), through the thumbnailer on both
/// its paths and through a batch: every failure comes out as the one error the decoder threw, a
/// batch gives one line naming the file for it and goes on with the others.
@Suite struct DecoderFaultTests {
    /// A 40x30 source into a 16x16 box streams (at any number of scales); into a 40x40 box its @1x
    /// is the source's own size, so the image is decoded whole.
    static let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 16, height: 16)))
    static let wholeThumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40)))
    static let streamingPoints: [MockDecoder.FailurePoint] = [.header, .start, .row(0), .row(17), .row(29), .finish]
    static let wholePoints: [MockDecoder.FailurePoint] = [.header, .start, .image]

    static func thumbnails(_ decoder: @escaping () throws(DecodeError) -> MockDecoder, scales: [Int],
                           whole: Bool = false) throws(ThumbnailError) -> [Thumbnail] {
        let thumbnailer = whole ? wholeThumbnailer : thumbnailer
        var thumbnails: [Thumbnail] = []
        for picture in try thumbnailer.pictures(opening: { () throws(DecodeError) in try decoder() }, scales: scales, rating: nil) {
            thumbnails.append(try Thumbnailer.encode(picture, options: thumbnailer.options))
        }
        return thumbnails
    }

    /// Without a failure the mock thumbnails as its pixels do, streamed or whole: it drives the
    /// pipeline as a real decoder does.
    @Test(arguments: [([1], false), ([1, 2], false), ([1, 2], true)])
    func aMockThatDoesNotFailThumbnailsAsItsPixelsDo(scales: [Int], whole: Bool) throws {
        var made: MockDecoder?
        let thumbnails = try Self.thumbnails({ () throws(DecodeError) in
            let decoder = try MockDecoder()
            made = decoder
            return decoder
        }, scales: scales, whole: whole)
        let pixels = MockDecoder.image(width: 40, height: 30)
        let thumbnailer = whole ? Self.wholeThumbnailer : Self.thumbnailer
        for thumbnail in thumbnails {
            #expect(thumbnail.bytes == (try thumbnailer.thumbnail(of: pixels, scale: thumbnail.scale.wholeValue!).bytes), "@\(thumbnail.scale)x")
        }
        let decoder = try #require(made)
        if !whole {
            #expect(decoder.rowsRead == 30 && decoder.finished && !decoder.decodedWhole, "streamed, every row, then finished")
        } else {
            #expect(decoder.decodedWhole && decoder.rowsRead == 0)
        }
    }

    @Test(arguments: streamingPoints)
    func aStreamFailingAnywhereIsItsOneError(_ point: MockDecoder.FailurePoint) {
        let error = #expect(throws: ThumbnailError.decode(point.error)) {
            try Self.thumbnails({ () throws(DecodeError) in try MockDecoder(failingAt: point) }, scales: [1])
        }
        #expect(error?.message == "corrupt PNG: mock failure at \(point)")
    }

    @Test(arguments: wholePoints)
    func aWholeDecodeFailingAnywhereIsItsOneError(_ point: MockDecoder.FailurePoint) {
        #expect(throws: ThumbnailError.decode(point.error)) {
            try Self.thumbnails({ () throws(DecodeError) in try MockDecoder(failingAt: point) }, scales: [1, 2], whole: true)
        }
    }

    /// A batch of five real PNGs whose decoders (but the first's and the last's) fail at a point
    /// each: one line per failing file naming it and the decoder's message, the good files written,
    /// the manifest holding only them, no temporary file left, exit status 1.
    @Test func aBatchGivesOneLinePerFailingDecoder() throws {
        let dir = ScratchDirectory()
        for i in 0..<5 { dir.write("in/img\(i).png", Fixture.png(width: 40, height: 30, seed: i)) }
        let failing: [String: MockDecoder.FailurePoint] = ["img1.png": .start, "img2.png": .row(3), "img3.png": .finish]
        let renderer: BatchRenderer = { source in
            let point = failing[source.path.lastComponent.description]
            let request = source.requests[0]
            let pictures = try Self.thumbnailer.pictures(opening: { () throws(DecodeError) -> any ImageDecoder in
                if let point { return try MockDecoder(failingAt: point) }
                return try source.image.openDecoder(limits: .default)
            }, scales: request.variants.map { $0.scale.wholeValue! }, rating: nil)
            return BatchRendering(outputs: try zip(request.variants, pictures).map { variant, picture in
                let thumbnail = try Thumbnailer.encode(picture, options: Self.thumbnailer.options)
                return RenderedOutput(variant: variant, image: thumbnail.image, bytes: thumbnail.bytes)
            })
        }
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        configuration.jobs = 2
        let summary = try BatchRunner(configuration: configuration, renderer: renderer).run()
        #expect(summary.written == 2 && summary.exitStatus == 1)
        #expect(summary.failed.map(\.line).sorted() == failing.sorted { $0.key < $1.key }.map { name, point in
            "\(dir.at("in/" + name)): corrupt PNG: mock failure at \(point)"
        })
        #expect(try Manifest.load(path: configuration.manifestPath).sortedEntries.map(\.output) == ["img0.png", "img4.png"])
        #expect(!Fixture.tree(dir.at("out")).keys.contains { $0.contains(AtomicFile.temporaryMarker) })
    }
}
