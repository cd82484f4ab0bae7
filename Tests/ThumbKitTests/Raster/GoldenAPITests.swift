import Foundation
import Testing
import TestSupport
@testable import ThumbKit

/// What a golden test needs from the library: a decode as the thumbnailer sees the source, the
/// hashes a manifest records, and a comparison that says how far two images are apart.
@Suite struct GoldenAPITests {
    @Test func decodeIsUprightAndInSRGB() throws {
        // EXIF orientation 6 (a quarter turn): stored 80x60, upright 60x80, as the header says.
        let source = ImageSource.file(Fixtures.path("webp/lossy-exif-6.webp"))
        let header = try source.header()
        let image = try source.decode()
        #expect(header.storedWidth == 80 && header.storedHeight == 60)
        #expect(image.width == 60 && image.height == 80 && header.width == 60)
        // Limits apply before the pixels are allocated.
        var limits = DecodeLimits.default
        limits.maxPixels = 10
        #expect(throws: DecodeError.self) { try source.decode(limits: limits) }
    }

    @Test func hashesAreTheManifests() throws {
        let out = Fixtures.temporaryDirectory("golden-api-hashes")
        let run = CLIRun([Fixtures.path("photos/cat-rgba8.png"), "-o", out, "--size", "40", "--format", "png,webp"])
        #expect(run.status == .success, "\(run.err)")
        let entries = try Manifest.load(path: out + "/thumbgen-manifest.json").sortedEntries
        let thumbnails = try Thumbnailer(set: ThumbnailSet(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40)),
                                                           formats: [.png, .webp(WebPEncoder())]))
            .thumbnails(of: .file(Fixtures.path("photos/cat-rgba8.png")))
        #expect(entries.count == 2 && thumbnails.count == 2)
        for thumbnail in thumbnails {
            let entry = try #require(entries.first { $0.format == thumbnail.format.name })
            #expect(thumbnail.pixelHash == entry.pixelSHA256 && thumbnail.fileHash == entry.fileSHA256)
        }
        // A PNG output's pixels decode to its pixel hash.
        let png = try #require(entries.first { $0.format == "png" })
        #expect(try ImageSource.file(out + "/" + png.output.description).decode().pixelHash == png.pixelSHA256)
    }

    @Test func comparisonCountsMeasuresAndDraws() throws {
        var samples = [UInt8](repeating: 100, count: 4 * 4 * 4)
        let golden = Image(width: 4, height: 4, rgba8: samples)
        #expect(ImageComparison(golden, golden).isIdentical && ImageComparison(golden, golden).psnr == .infinity)
        #expect(ImageComparison(golden, golden).summary == "identical")
        samples[0] = 103        // pixel 0: 3 levels of red
        samples[4 * 5 + 2] = 99 // pixel 5: 1 level of blue
        let actual = Image(width: 4, height: 4, rgba8: samples)
        let comparison = ImageComparison(actual, golden)
        #expect(comparison.differingPixels == 2 && comparison.maximumDifference == 3)
        // MSE = (9 + 1) / 64 samples.
        let psnr = 10 * log10(255.0 * 255.0 * 64 / 10)
        #expect(abs(comparison.psnr - psnr) < 1e-9)
        #expect(comparison.matches(tolerance: 3) && !comparison.matches(tolerance: 2))
        #expect(comparison.summary.hasPrefix("2 pixels differ, maximum difference 3, PSNR "))
        let diff = try #require(comparison.diffImage())
        let red = (0..<16).filter { diff.rgba8[4 * $0] >= 128 && diff.rgba8[4 * $0 + 1] == 0 }
        #expect(red == [0, 5])
        #expect((0..<16).allSatisfy { diff.rgba8[4 * $0 + 3] == 255 })

        let other = ImageComparison(Image(width: 4, height: 3, rgba8: [UInt8](repeating: 0, count: 48)), golden)
        #expect(!other.sameSize && other.diffImage() == nil && other.summary == "size differs (4x3, golden 4x4)")
    }
}
