import Foundation
import Testing
@testable import ThumbgenCLI
import TestSupport

/// Camera RAW on the command line: `info` names the preview read and the orientation, a preview
/// smaller than the box is a one-line failure naming --enlarge, a RAW without a preview is
/// unsupported.
@Suite struct RAWCommandTests {
    static func path(_ name: String) -> String { Fixtures.path("raw/" + name) }

    @Test func infoNamesThePreviewAndTheOrientation() throws {
        let files = [Self.path("synthetic.dng"), Self.path("synthetic.raf"), Fixtures.path("tiff/orientation-6.tif"),
                     Fixtures.path("webp/lossy-exif-6.webp"), Fixtures.path("heif/irot-90.heic")]
        let run = CLIRun(["info", "--no-sidecars"] + files)
        #expect(run.status == .success)
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        #expect(lines[0] == "\(files[0]): 1616x1080, raw DNG, 8-bit, preview: JPEG 1616x1080 from SubIFD 1, opaque, orientation 6 (rotate 90° clockwise), applied, rating 4 (xmp)")
        #expect(lines[1] == "\(files[1]): 1920x1280, raw RAF, 8-bit, preview: JPEG 1920x1280 from RAF header, opaque, orientation 3 (rotate 180°), applied")
        #expect(lines[2].hasSuffix(", orientation 6 (rotate 90° clockwise), applied"))
        #expect(lines[3].hasSuffix(", orientation 6 (rotate 90° clockwise), applied"))
        #expect(!lines[4].contains("orientation"))
    }

    @Test func aPreviewSmallerThanTheBoxNamesEnlarge() throws {
        let out = Fixtures.temporaryDirectory("raw")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let small = Self.path("synthetic-small-preview.dng")
        let refused = CLIRun(["-o", out, "--size", "256", small])
        #expect(refused.status == .failure)
        #expect(refused.err == "thumbgen: \(small): largest embedded preview is 160x120, smaller than the 256x256 box; --enlarge uses it anyway\n")
        let enlarged = CLIRun(["-o", out, "--size", "256", "--enlarge", small])
        #expect(enlarged.status == .success)
        #expect(FileManager.default.fileExists(atPath: out + "/synthetic-small-preview.png"))
    }

    @Test func aRAWWithoutAPreviewIsUnsupported() {
        let file = Self.path("exiftool-DNG.dng")
        let run = CLIRun(["info", file])
        #expect(run.status == .failure)
        #expect(run.err == "thumbgen: \(file): unsupported camera RAW: no JPEG preview in this DNG (thumbgen does not demosaic sensor data)\n")
    }
}
