import Foundation
import Testing
import ThumbKit
import TestSupport

/// The committed badge set in `Assets/stars/` must be exactly what the code makes from
/// `Assets/stars/badge-spec.json`.
///
/// To regenerate after an intended change, run `make assets`, look at the PNGs, update
/// `defaultSetPixelHashes` below from the printed values, and say why in the commit.
@Suite struct StarBadgeGoldenTests {
    static let assets = Fixtures.repository.appendingPathComponent("Assets/stars").path
    static let updating = ProcessInfo.processInfo.environment["THUMBGEN_UPDATE_GOLDEN"] == "1"

    /// SHA-256 of the RGBA8 pixels (row-major, straight alpha, as `Image(bitmap).rgba8`) of every
    /// file of the default spec. Independent of the PNG compressor, unlike the file hashes in the manifest.
    static let defaultSetPixelHashes: [String: String] = [
        "1StarSmall.png": "627a14179c566796342658db015d82d587cf692ed0e275562fef94935d992150",
        "1StarSmall@2x.png": "68e58139013f69d12e523bd759dd196457bfc2d98df6f153e3512655ace1f236",
        "1StarSmall@3x.png": "78c11a99d2fabe740425663e7e68a20d0b73f6b6c41dcfa7aed010ba4ac7f42b",
        "2StarsSmall.png": "1bbed5dc433a02c1cba878dc0cf10968d3044872dde85eed6a58422f852fcadb",
        "2StarsSmall@2x.png": "e7ca488348765e73363c43a89ffb70b493821d4f9ed2d6a35878ad1d2d3f6af8",
        "2StarsSmall@3x.png": "4585511c3acb60f39565002d08101b1e4fd82e91e6f46ed69f55120d68fd8f9e",
        "3StarsSmall.png": "267bc5f80f1f997cc2b022617028fad9e88ced7c9ca98e6bdc29e115225b6184",
        "3StarsSmall@2x.png": "9341850305ae0426bfc1d606b284ea8bd67d6bd77d5ab176454e2e20ce2aa470",
        "3StarsSmall@3x.png": "0f098b47e33f73770e2e8da5d261267aec9a75fbbf885b808513ceb4cdb16c3d",
        "4StarsSmall.png": "cb242e4c86a182512c8611272401c22a029149833f1949225e89691e557d6581",
        "4StarsSmall@2x.png": "e29a0c6411a039ffc27cb2b34eb805c65ba925f0b889c83800500b37bfa80322",
        "4StarsSmall@3x.png": "80acc8f2b6113317d7e3594d8991ca3b141d7fd552492a41e0450d7603c96878",
        "5StarsSmall.png": "2a030f53473493023d5fd310eb9d5bd6e16587f090cb9f9aacecbedfc5e8c1b8",
        "5StarsSmall@2x.png": "a67b782c4f9b90e332f64e966dbb75d0546b3aa26465ec19c2a716a326df3d42",
        "5StarsSmall@3x.png": "7610a09f32818bab11e3d05a4e7bb867d6f6e0e82e95687d142505db033a1213",
    ]

    @Test func assetsMatchSpec() throws {
        let specPath = Self.assets + "/badge-spec.json"
        let specBytes = try #require(FileManager.default.contents(atPath: specPath), "missing \(specPath)")
        let spec = try StarBadgeSpec(json: Array(specBytes))
        let rendered = try StarBadgeSet(spec: spec).render()
        let manifest = FileManager.default.contents(atPath: Self.assets + "/golden-manifest.json").map { [UInt8]($0) }
        #expect(manifest == rendered.manifest, "Assets/stars differs from what the spec gives (make assets)")
        for file in rendered.files {
            let committed = FileManager.default.contents(atPath: Self.assets + "/" + file.name).map { [UInt8]($0) }
            #expect(committed == file.bytes, "\(file.name) differs")
        }
    }

    @Test func defaultSetPixelsAreFrozen() throws {
        let files = try StarBadgeSet(spec: StarBadgeSpec()).render().files
        #expect(files.map(\.name) == [
            "1StarSmall.png", "1StarSmall@2x.png", "1StarSmall@3x.png",
            "2StarsSmall.png", "2StarsSmall@2x.png", "2StarsSmall@3x.png",
            "3StarsSmall.png", "3StarsSmall@2x.png", "3StarsSmall@3x.png",
            "4StarsSmall.png", "4StarsSmall@2x.png", "4StarsSmall@3x.png",
            "5StarsSmall.png", "5StarsSmall@2x.png", "5StarsSmall@3x.png",
        ])
        var hashes: [String: String] = [:]
        for file in files {
            let image = try PNGDecoder.decode(bytes: file.bytes)
            hashes[file.name] = SHA256.hex(image.rgba8)
        }
        if Self.updating || Self.defaultSetPixelHashes.isEmpty {
            for name in hashes.keys.sorted() { print("        \"\(name)\": \"\(hashes[name]!)\",") }
        }
        if !Self.updating { #expect(hashes == Self.defaultSetPixelHashes) }
    }
}
