import Foundation
import Testing
import ThumbKit

/// Rendering a badge set once and writing everything from those bytes (`StarBadgeSet.render()`,
/// `StarBadgeFiles`).
@Suite struct StarBadgeFilesTests {
    /// "rating@scale" for every render the log saw, in order.
    static func renders(_ log: StarRenderLog) -> [String] {
        log.entries.map { "\($0.rating)@\($0.scale)" }
    }

    @Test func writingFilesCatalogAndManifestRendersNothingMore() throws {
        let dir = NSTemporaryDirectory() + "thumbgen-badge-files-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var spec = StarBadgeSpec()
        spec.ratings = [1, 4.5]
        spec.scales = [3, 1]
        spec.fillMode = .half
        let log = StarRenderLog()
        let rendered = try StarRenderLog.$current.withValue(log) { () throws -> StarBadgeFiles in
            let rendered = try StarBadgeSet(spec: spec).render()
            #expect(Self.renders(log) == ["1.0@3", "1.0@1", "4.5@3", "4.5@1"])
            try rendered.write(to: dir + "/png")
            try rendered.writeAssetCatalog(to: dir + "/Stars.xcassets")
            try rendered.writeManifest(to: dir + "/manifest.json")
            return rendered
        }
        #expect(Self.renders(log) == ["1.0@3", "1.0@1", "4.5@3", "4.5@1"], "writing rendered again")
        for file in rendered.files {
            let plain = FileManager.default.contents(atPath: dir + "/png/" + file.name).map { [UInt8]($0) }
            let inCatalog = FileManager.default.contents(
                atPath: dir + "/Stars.xcassets/" + file.baseName + ".imageset/" + file.name).map { [UInt8]($0) }
            #expect(plain == file.bytes && inCatalog == file.bytes, "\(file.name)")
        }
        #expect(FileManager.default.contents(atPath: dir + "/manifest.json").map { [UInt8]($0) } == rendered.manifest)
    }

    @Test func theLogSeesEveryRender() throws {
        // Rendering one set twice draws every badge twice: the log counts renders, not badges,
        // so the test above would see a second render.
        let set = try StarBadgeSet(spec: StarBadgeSpec())
        let log = StarRenderLog()
        try StarRenderLog.$current.withValue(log) {
            _ = try set.render()
            _ = try set.render()
        }
        #expect(log.entries.count == 2 * 5 * 3)
    }

    @Test(arguments: [([2, 2], "scales: 2 is listed twice"), ([1, 4], "scales: '4' is not a scale"),
                      ([0], "scales: '0' is not a scale")])
    func scalesSetDirectlyAreValidated(scales: [Int], message: String) {
        var spec = StarBadgeSpec()
        spec.scales = scales
        #expect {
            _ = try StarBadgeSet(spec: spec)
        } throws: { error in
            (error as? StarBadgeError)?.message.hasPrefix(message) == true
        }
    }
}
