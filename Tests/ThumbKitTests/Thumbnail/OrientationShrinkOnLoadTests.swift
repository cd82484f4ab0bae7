import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Shrink-on-load under every EXIF orientation, on a source whose sides are not multiples of the
/// reduction: libjpeg's partial last block lies at the right and bottom of the *stored* image,
/// which after a flip or rotation is the left or top of the upright one. The decode plan maps the
/// fit region through the orientation, so each orientation's thumbnail is the upright one's.
@Suite struct OrientationShrinkOnLoadTests {
    /// 1203 × 801 (neither side a multiple of 8): the cat photo of the fixtures, enlarged to that
    /// size with Lanczos-3, so that the scene is a real photo's (JPEG's own block structure and
    /// the reduced decode's box prefilter act on it as on a camera's file).
    static let width = 1203, height = 801
    static let scene: [UInt8] = {
        let cat = try! PNGDecoder.decode(path: Fixtures.path("photos/cat-rgba8.png"))
        let enlarged = Image(Resampler().resample(cat, to: width, height: height))
        let rgba = enlarged.rgba8
        var rgb = [UInt8]()
        rgb.reserveCapacity(width * height * 3)
        for i in 0..<(width * height) { rgb += rgba[(i * 4)..<(i * 4 + 3)] }
        return rgb
    }()

    /// The scene stored so that `orientation` turns it upright, as a JPEG tagged with it.
    static func jpeg(_ orientation: Orientation) -> [UInt8] {
        let storedWidth = orientation.swapsAxes ? height : width, storedHeight = orientation.swapsAxes ? width : height
        var stored = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let s = orientation.storedPosition(x: x, y: y, width: storedWidth, height: storedHeight)
                let from = (y * width + x) * 3, to = (s.y * storedWidth + s.x) * 3
                stored[to] = scene[from]; stored[to + 1] = scene[from + 1]; stored[to + 2] = scene[from + 2]
            }
        }
        return JPEGFixtures.encode(stored, width: storedWidth, height: storedHeight, quality: 92, subsampling: .s420,
                                   exif: JPEGFixtures.exif(orientation: UInt16(orientation.rawValue), bigEndian: false))
    }

    /// The largest difference on any channel, leaving out `border` pixels at each edge.
    static func largestDifference(_ a: Image, _ b: Image, border: Int = 0) -> Int {
        let x = a.rgba8, y = b.rgba8
        var worst = 0
        for row in border..<(a.height - border) {
            for column in border..<(a.width - border) {
                let i = (row * a.width + column) * 4
                for c in 0..<3 { worst = max(worst, abs(Int(x[i + c]) - Int(y[i + c]))) }
            }
        }
        return worst
    }

    @Test(arguments: [ThumbnailSize(width: 128, height: 128), ThumbnailSize(width: 100, height: 60, mode: .cover)])
    func everyOrientationShrinksToTheUprightThumbnail(size: ThumbnailSize) throws {
        let shrinking = Thumbnailer(options: ThumbnailOptions(size: size))
        let exact = Thumbnailer(options: ThumbnailOptions(size: size, shrinkOnLoad: false))
        let upright = Self.jpeg(.topLeft)
        let reference = try shrinking.thumbnails(of: .bytes(upright))[0].image
        let exactReference = try exact.thumbnails(of: .bytes(upright))[0].image
        var shrunkDifferences: [Int] = [], exactDifferences: [Int] = [], againstExact: [Int] = []
        for orientation in Orientation.allCases {
            let jpeg = Self.jpeg(orientation)
            #expect(try DecodeTestPlan.plan(jpeg, options: shrinking.options).reduction == 4)
            let shrunk = try shrinking.thumbnails(of: .bytes(jpeg))[0].image
            let full = try exact.thumbnails(of: .bytes(jpeg))[0].image
            #expect((shrunk.width, shrunk.height) == (reference.width, reference.height))
            shrunkDifferences.append(Self.largestDifference(shrunk, reference))
            exactDifferences.append(Self.largestDifference(full, exactReference))
            againstExact.append(Self.largestDifference(shrunk, exactReference))
        }
        print("orientations 1-8, \(size): shrink-on-load against the upright file's shrink-on-load \(shrunkDifferences), "
              + "against its exact decode \(againstExact); --no-shrink-on-load against the upright \(exactDifferences)")
        // Shrink-on-load is a block-wise prefilter on the stored grid, so two orientations of one
        // scene are reduced at different phases and never agree exactly. What the orientation
        // may add to shrink-on-load's own error (the upright file's, against its exact decode) is
        // what JPEG's re-encoding of the turned scene adds without it; a shifted mapping adds far
        // more (up to 117 levels at an edge before the fix).
        let allowance = againstExact[0] + exactDifferences.max()!
        #expect(againstExact.allSatisfy { $0 <= allowance }, "\(againstExact), allowed \(allowance)")
        #expect(shrunkDifferences[0] == 0 && exactDifferences[0] == 0)
    }

    /// The mapping itself: on an axis the orientation reverses, the decoded content is offset by
    /// what the partial last block leaves over.
    @Test func regionsAreOffsetOnReversedAxes() throws {
        let options = ThumbnailOptions(size: ThumbnailSize(width: 128, height: 128))
        let thumbnailer = Thumbnailer(options: options)
        for orientation in Orientation.allCases {
            let plan = try DecodeTestPlan.plan(Self.jpeg(orientation), options: options)
            let fit = thumbnailer.plan(sourceWidth: plan.width, sourceHeight: plan.height, scale: 1)
            // Stored 1203 × 801 (or 801 × 1203) at 1/4: 301 × 201 pixels upright, holding 300.75 × 200.25
            // of content.
            let region = plan.region(for: fit, decodedWidth: 301, decodedHeight: 201)
            let reversed = orientation.reversesUprightAxes
            #expect(region.x == (reversed.x ? 0.25 : 0) && region.y == (reversed.y ? 0.75 : 0), "\(orientation): \(region)")
            #expect(abs(region.width - Double(plan.width) / 4) < 1e-9 && abs(region.height - Double(plan.height) / 4) < 1e-9)
        }
    }
}
