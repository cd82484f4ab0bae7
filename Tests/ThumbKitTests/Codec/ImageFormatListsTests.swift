import Foundation
import Testing
import TestSupport
@testable import ThumbKit

/// Every list of formats and extensions is made from `ImageFormat`'s table. The SwiftPM plugin
/// cannot import ThumbKit and keeps its own list of extensions, so it is read from its source and
/// compared here: the two cannot drift apart.
@Suite struct ImageFormatListsTests {
    @Test func thePluginTakesTheExtensionsThumbgenTakes() throws {
        let plan = try String(contentsOf: Fixtures.repository.appendingPathComponent("Plugins/Shared/ThumbgenPlan.swift"), encoding: .utf8)
        let line = try #require(plan.split(separator: "\n").first { $0.contains("static let imageExtensions") })
        // The string literals in the line: every other piece between quotes.
        let extensions = line.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(Set(extensions) == ImageFormat.fileExtensions)
        #expect(extensions.count == ImageFormat.fileExtensions.count, "an extension listed twice")
    }

    /// An extension promises one format, and the walker takes it in any case.
    @Test func everyExtensionPromisesOneFormat() {
        let all = ImageFormat.allCases.flatMap(\.facts.extensions)
        #expect(Set(all).count == all.count)
        for ext in all {
            #expect(SourceWalker.hasImageExtension(Array("photo.\(ext)".utf8)) && SourceWalker.hasImageExtension(Array("PHOTO.\(ext.uppercased())".utf8)))
        }
        #expect(!SourceWalker.hasImageExtension(Array("notes.txt".utf8)))
    }

    @Test func namesInProse() {
        #expect(ImageFormat.names() == "PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW")
        #expect(ImageFormat.names("and", kinds: true)
                == "PNG, JPEG, WebP, GIF, TIFF, HEIF (HEIC, AVIF) and camera RAW (DNG, CR2, CR3, NEF, ARW, ORF, RW2, PEF, SRW, RAF)")
        #expect(DecodeError.unrecognised.message == "not a PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW file")
        for format in ImageFormat.allCases {
            #expect(ImageHeader.descriptionShape(of: format).hasPrefix("WIDTHxHEIGHT, "), "\(format)")
        }
    }
}
