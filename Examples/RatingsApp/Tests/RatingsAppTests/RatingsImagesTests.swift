import Foundation
import Testing
import RatingsApp

/// Every generated resource is in `Bundle.module`, as a PNG of the size thumbgen.json asks for.
struct RatingsImagesTests {
    /// One expected image: base name, scale and pixel size.
    struct Expected: CustomTestStringConvertible, Sendable {
        let name: String
        let scale: Int
        let width: Int
        let height: Int
        var fileName: String { name + (scale == 1 ? "" : "@\(scale)x") + ".png" }
        var testDescription: String { fileName }
    }

    /// Thumbnails: 40×40 per scale. Badges: 5 cells of 16 px with 1 px between, 84×16 at @1x.
    static let expected: [Expected] =
        RatingsImages.photoNames.flatMap { name in
            RatingsImages.scales.map { Expected(name: name, scale: $0, width: 40 * $0, height: 40 * $0) }
        } + (1...5).flatMap { rating in
            RatingsImages.scales.map { Expected(name: RatingsImages.badgeName(rating: rating), scale: $0, width: 84 * $0, height: 16 * $0) }
        }

    @Test(arguments: expected)
    func resourceHasItsSize(_ image: Expected) throws {
        let url = try #require(RatingsImages.url(named: image.name, scale: image.scale), "no \(image.fileName) in Bundle.module")
        let bytes = [UInt8](try Data(contentsOf: url))
        let size = try #require(Self.pngSize(bytes), "\(image.fileName) is not a PNG")
        #expect(size.width == image.width && size.height == image.height,
                "\(image.fileName) is \(size.width)x\(size.height), expected \(image.width)x\(image.height)")
    }

    /// Every icon PNG, square at its size; the App Store icon with no alpha channel (colour type
    /// 2, IHDR byte 25).
    @Test func iconsHaveTheirSizes() throws {
        for icon in RatingsImages.iconPNGs {
            let url = try #require(RatingsImages.iconURL(named: icon.name), "no \(icon.name).png in Bundle.module")
            let bytes = [UInt8](try Data(contentsOf: url))
            let size = try #require(Self.pngSize(bytes), "\(icon.name).png is not a PNG")
            #expect(size.width == icon.pixels && size.height == icon.pixels, "\(icon.name).png is \(size.width)x\(size.height)")
            if icon.name == "ios-AppIcon.appiconset-AppIcon-1024" { #expect(bytes[25] == 2) }
        }
    }

    /// The bundle holds these PNGs and nothing else (no batch manifest, no settings files).
    @Test func bundleHoldsExactlyTheGeneratedImages() throws {
        let folder = try #require(RatingsImages.resourceFolder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == (Self.expected.map(\.fileName) + RatingsImages.iconPNGs.map { $0.name + ".png" }).sorted())
    }

    /// Width and height from the IHDR chunk, which a PNG must start with after its signature:
    /// bytes 16…19 and 20…23, big-endian.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }
}
