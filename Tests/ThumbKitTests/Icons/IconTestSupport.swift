import TestSupport
import Foundation
@testable import ThumbKit

/// Renders icon sets from the fixtures in `Tests/Fixtures/icons` (`Scripts/make-icon-fixtures.py`).
enum IconTestSupport {
    static func fixture(_ name: String) -> String { Fixtures.path("icons/" + name) }

    /// An extra source read from the fixtures.
    static func source(_ name: String) throws -> IconSet.Source {
        try IconSet.Source.read(FilePath(fixture(name)), manifestDirectory: FilePath(Fixtures.directory)).get()
    }

    /// Every file of the set, by path.
    static func render(_ set: IconSet, master: String = "master.png") throws -> [String: RenderedIconFile] {
        let made = try IconRenderer(set: set).render(master: .file(fixture(master))).files
        return Dictionary(uniqueKeysWithValues: made.map { ($0.path, $0) })
    }

    /// A PNG's pixels.
    static func pixels(_ file: RenderedIconFile?) throws -> Image {
        try ImageSource.bytes(file!.bytes).decodeAsStored()
    }

    /// The PNG's colour type (IHDR byte 25) and whether it has a tRNS chunk.
    static func colourType(_ bytes: [UInt8]) -> (type: UInt8, hasTRNS: Bool) {
        var offset = 8, trns = false
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == "tRNS" { trns = true }
            offset += 12 + length
        }
        return (bytes[25], trns)
    }

    static func alpha(_ image: Image, _ x: Int, _ y: Int) -> UInt8 { image.rgba8[(y * image.width + x) * 4 + 3] }
    static func rgba(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.rgba8[i..<i + 4])
    }
}
