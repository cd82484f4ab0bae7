import Testing
@testable import ThumbKit

/// The default badge stays readable on any photo: measured as WCAG contrast between the stars and
/// the pixels right around them (`BadgeContrast`), on fields of the colours closest to the
/// default orange, where the bare badge (no halo) all but vanishes.
@Suite struct BadgeContrastTests {
    /// A `width` × `height` field of `base` with ±20 of seeded noise per channel: sunflowers, grass.
    static func field(_ base: (Int, Int, Int), width: Int = 160, height: Int = 120) -> Image {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var rgba: [UInt8] = []
        for _ in 0..<(width * height) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let jitter = Int((state >> 33) % 41) - 20
            rgba += [base.0, base.1, base.2].map { UInt8(max(0, min(255, $0 + jitter))) } + [255]
        }
        return Image(width: width, height: height, rgba8: rgba)
    }

    static let sunflower = (248, 196, 24), duneGrass = (214, 190, 130), orange = (255, 149, 0)

    @Test(arguments: [0.0, 4.0])
    func theHaloMakesTheStarsReadable(stars: Double) throws {
        var bare = RatingBadgeStyle()
        bare.halo = nil
        for base in [Self.sunflower, Self.duneGrass, Self.orange] {
            let photo = Self.field(base)
            let before = try BadgeContrast.ratio(of: bare, stars: stars, on: photo)
            let after = try BadgeContrast.ratio(of: RatingBadgeStyle(), stars: stars, on: photo)
            // WCAG's 3:1 for graphics; the bare orange badge on these fields is far below it.
            #expect(before < 1.6, "\(base) \(stars): \(before)")
            #expect(after >= 3, "\(base) \(stars): \(after)")
        }
    }

    /// The measure itself: black stars on white are the most contrast there is (21:1 less what
    /// anti-aliasing takes), stars the colour of their background none (1:1).
    @Test func theMeasureSpansOneToTwentyOne() throws {
        var black = RatingBadgeStyle()
        black.fill = .black
        black.outline = .black
        black.halo = nil
        let white = Self.field((255, 255, 255))
        let extreme = try BadgeContrast.ratio(of: black, stars: 5, on: white)
        #expect(extreme > 12, "\(extreme)")
        var same = black
        same.fill = Color(red: 120, green: 120, blue: 120)
        same.outline = same.fill
        let grey = Image(width: 160, height: 120, rgba8: [UInt8](repeating: 120, count: 160 * 120 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element })
        #expect(abs(try BadgeContrast.ratio(of: same, stars: 5, on: grey) - 1) < 0.01)
    }
}
