import Foundation
import Testing
@testable import ThumbgenCLI
import TestSupport

/// `thumbgen info` appends a photo's rating and where it came from; files without one print the
/// line they always did.
@Suite struct RatingInfoTests {
    static func fixture(_ name: String) -> String { Fixtures.path("ratings/" + name) }

    @Test func infoAppendsTheRating() {
        let names = ["xmp-half.png", "exif-rejected.jpg", "sidecar-both.jpg", "missing.jpg", "exif.tif"]
        let run = CLIRun(["info", "--header-only"] + names.map(Self.fixture))
        #expect(run.status == .success)
        #expect(run.err.isEmpty)
        #expect(run.out == """
            \(Self.fixture("xmp-half.png")): 8x8, rgb, 8-bit, not interlaced, opaque, rating 4.5 (xmp)
            \(Self.fixture("exif-rejected.jpg")): 8x8, jpeg ycbcr, 8-bit, baseline, opaque, rejected (exif)
            \(Self.fixture("sidecar-both.jpg")): 8x8, jpeg ycbcr, 8-bit, baseline, opaque, rating 5 (sidecar)
            \(Self.fixture("missing.jpg")): 8x8, jpeg ycbcr, 8-bit, baseline, opaque
            \(Self.fixture("exif.tif")): 8x8, tiff rgb, 8-bit, strips, opaque, rating 2 (exif)

            """)
    }

    @Test func unusableXMPIsAWarningNotAFailure() {
        let path = Self.fixture("sidecar-malformed.jpg")
        let run = CLIRun(["info", path])
        #expect(run.status == .success)
        #expect(run.out == "\(path): 8x8, jpeg ycbcr, 8-bit, baseline, opaque, rating 3 (exif)\n")
        #expect(run.err == "thumbgen: warning: \(path): sidecar \(path).xmp: malformed XMP (end tag 'x:xmpmeta' does not match 'rdf:RDF'); rating ignored\n")
    }

    @Test func ratingsFileBeatsEverything() throws {
        let folder = Fixtures.temporaryDirectory("ratings")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = folder + "/ratings.csv"
        // Relative to the ratings file's folder.
        let relative = String(repeating: "../", count: folder.split(separator: "/").count) + String(Self.fixture("sidecar-both.jpg").dropFirst())
        try Data("path,rating\n\"\(relative)\",1\n".utf8).write(to: URL(fileURLWithPath: list))
        let run = CLIRun(["info", "--header-only", "--ratings-file", list, Self.fixture("sidecar-both.jpg")])
        #expect(run.status == .success)
        #expect(run.out.hasSuffix("opaque, rating 1 (ratings-file)\n"))

        try Data("path,rating\na.jpg,4\nb.jpg,lots\n".utf8).write(to: URL(fileURLWithPath: list))
        let bad = CLIRun(["info", "--ratings-file", list, Self.fixture("missing.jpg")])
        #expect(bad.status == .usage)
        #expect(bad.out.isEmpty)
        #expect(bad.err.hasPrefix("thumbgen: ratings file \(list), line 3: rating 'lots' is not -1 or a number from 0 to 5\n"))
    }

    @Test func noSidecarsReadsTheImageAlone() {
        let run = CLIRun(["info", "--header-only", "--no-sidecars", Self.fixture("sidecar-both.jpg")])
        #expect(run.status == .success)
        #expect(run.out.hasSuffix("opaque, rating 2 (xmp)\n"))
    }

    @Test func helpExplainsTheRating() {
        let help = CLIRun(["info", "--help"]).out
        #expect(help.contains("--ratings-file FILE"))
        #expect(help.contains(", rating N (WHERE)"))
    }
}
