import Testing
import TestSupport
@testable import ThumbgenCLI
import ThumbKit

/// Every library that can change an output's bytes is in the settings of every output, and
/// `--version` prints the same list: an upgrade of any one rebuilds what it may change.
@Suite struct LibraryVersionsTests {
    /// Each decoder's library, the ones libheif runs, lcms2 and libwebp's encoder.
    static let libraries = ["libpng", "zlib", "libjpeg-turbo", "lcms2", "libwebp", "giflib", "libtiff", "libheif",
                            "libde265", "dav1d", "libwebp-encoder", "libaom", "libdeflate"]

    @Test func everyLibraryIsListedOnceWithAVersion() {
        let current = LibraryVersions.current
        #expect(Set(current.versions.keys) == Set(Self.libraries))
        #expect(CodecVersions.all.count == Self.libraries.count)
        for (name, version) in current.versions { #expect(version.first?.isNumber == true, "\(name) \(version)") }
    }

    @Test func versionAndManifestAgree() throws {
        let version = CLIRun(["--version"]).out
        #expect(version == "thumbgen \(ThumbKitVersion.string) (\(CodecVersions.field))\n")
        let listed = String(version.drop { $0 != "(" }.dropFirst().dropLast(2))
        #expect(listed == CodecVersions.field)

        let out = Fixtures.temporaryDirectory("library-versions")
        let thumbnails = CLIRun([Fixtures.path("photos/cat-rgba8.png"), "-o", out + "/thumbs", "--size", "32", "--format", "png,jpeg,webp"])
        #expect(thumbnails.status == .success, "\(thumbnails.err)")
        let icons = CLIRun(["icons", Fixtures.path("icons/master.png"), "-o", out + "/icons", "--platforms", "ios"])
        #expect(icons.status == .success, "\(icons.err)")
        var entries = try Manifest.load(path: out + "/thumbs/thumbgen-manifest.json").sortedEntries
        entries += try Manifest.load(path: out + "/icons/thumbgen-manifest.json").sortedEntries
        #expect(Set(entries.map(\.format)).isSuperset(of: ["png", "jpeg", "webp", "json"]))
        for entry in entries {
            let fields = entry.settings.split(separator: ";").map(String.init).filter { $0.hasPrefix("libraries=") }
            #expect(fields == ["libraries=" + CodecVersions.field], "\(entry.output)")
            #expect(LibraryVersions(settings: entry.settings) == .current)
        }
    }

    /// Descriptions written before the `libraries` field named libpng, zlib, libjpeg, lcms2 and the
    /// WebP encoder; the rest read as not recorded.
    @Test func olderDescriptionsAndChanges() {
        let old = LibraryVersions(settings: "size=8x8;codec=libpng 1.6.39, zlib 1.2.13;jpeg=libjpeg-turbo 2.1.5 (API 62), lcms2 2.14;format=webp;webp=libwebp 1.2.4")
        #expect(old.versions == ["libpng": "1.6.39", "zlib": "1.2.13", "libjpeg-turbo": "2.1.5 (API 62)", "lcms2": "2.14",
                                 "libwebp-encoder": "1.2.4"])
        let now = LibraryVersions(items: ["libpng 1.6.40", "zlib 1.2.13", "giflib 5.2.1"])
        #expect(now.changes(from: old).map(\.description) == [
            "giflib (not recorded) → 5.2.1", "libjpeg-turbo 2.1.5 (API 62) → (not used)", "libpng 1.6.39 → 1.6.40",
            "libwebp-encoder 1.2.4 → (not used)", "lcms2 2.14 → (not used)",
        ].sorted())
    }
}
