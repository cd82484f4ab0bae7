import Testing
@testable import ThumbKit

/// `--rating-badge`: the photo's rating drawn on its thumbnail is the `stars` command's badge,
/// composited at the corner, and nothing else changes.
@Suite struct BadgeOverlayTests {
    static let source = ImageSource.bytes(try! PNGEncoder().encode(TestPatterns.gradient(600, 400)))

    static func options(_ style: RatingBadgeStyle?, size: ThumbnailSize = ThumbnailSize(width: 120, height: 90, mode: .cover)) -> ThumbnailOptions {
        var options = ThumbnailOptions(size: size)
        options.ratingBadge = style
        return options
    }

    /// The badge file `thumbgen stars` writes for this look, rating and scale, decoded.
    static func starsBadge(_ style: RatingBadgeStyle, cell: Int, rating: Double, scale: Int) throws -> Image {
        var spec = StarBadgeSpec()
        spec.size = cell
        spec.spacing = style.spacing
        spec.fill = style.fill
        spec.empty = style.empty
        spec.outline = style.outline
        spec.outlineWidth = style.outlineWidth ?? Double(cell) / 16
        spec.fillMode = style.fillMode
        spec.ratings = [rating]
        spec.scales = [scale]
        let file = try #require(try StarBadgeSet(spec: spec).render().files.first)
        return try ImageSource.bytes(file.bytes).decodeAsStored()
    }

    @Test(arguments: [(Gravity.southEast, 1), (.southEast, 2), (.southEast, 3), (.northWest, 2), (.south, 1), (.east, 3)])
    func theBadgeIsTheStarsCommandsBadgeAtTheCorner(corner: Gravity, scale: Int) throws {
        var style = RatingBadgeStyle()
        // The bare badge; `theHaloGoesUnderTheStarsCommandsBadge` has it over its halo.
        style.halo = nil
        style.corner = corner
        style.empty = Color(red: 200, green: 200, blue: 200, alpha: 160)
        style.fillMode = .half
        let plain = try Thumbnailer(options: Self.options(nil)).thumbnails(of: Self.source, scales: [scale])[0]
        let badged = try Thumbnailer(options: Self.options(style)).thumbnails(of: Self.source, scales: [scale], rating: .stars(3.5))[0]
        #expect(badged.rating == .stars(3.5))
        #expect(badged.ratingOrigin == nil)

        let cell = style.cellSize(boxWidth: 120, boxHeight: 90)
        #expect(cell == 13)   // the badge may span 60% of 120 = 72 pixels: 5·13 + 4 = 69 does, 5·14 + 4 = 74 not
        let badge = try Self.starsBadge(style, cell: cell, rating: 3.5, scale: scale)
        let margin = style.margin * scale
        let free = (width: 120 * scale - 2 * margin - badge.width, height: 90 * scale - 2 * margin - badge.height)
        let x = margin + [Gravity.northWest: 0, .south: free.width / 2, .southEast: free.width, .east: free.width][corner]!
        let y = margin + [Gravity.northWest: 0, .south: free.height, .southEast: free.height, .east: free.height / 2][corner]!
        // Exactly the badge file laid over the plain thumbnail...
        let composited = plain.image.compositing(badge, x: x, y: y) == badged.image
        #expect(composited)
        // ...which touched only the badge's pixels, and drew them where the badge is opaque.
        let a = plain.image.rgba8, b = badged.image.rgba8, stars = badge.rgba8
        var changed = 0
        for py in 0..<badged.image.height {
            for px in 0..<badged.image.width {
                let i = (py * badged.image.width + px) * 4
                let inside = px >= x && px < x + badge.width && py >= y && py < y + badge.height
                if !inside { #expect(a[i..<i + 4] == b[i..<i + 4]); continue }
                let j = ((py - y) * badge.width + (px - x)) * 4
                if stars[j + 3] == 255 { #expect(b[i..<i + 4] == stars[j..<j + 4]) }
                if a[i..<i + 4] != b[i..<i + 4] { changed += 1 }
            }
        }
        #expect(changed > badge.width * badge.height / 4)
    }

    @Test func rejectedAndUnratedPhotosGetNoBadge() throws {
        let plain = try Thumbnailer(options: Self.options(nil)).thumbnails(of: Self.source)[0]
        let thumbnailer = Thumbnailer(options: Self.options(RatingBadgeStyle()))
        let rejected = try thumbnailer.thumbnails(of: Self.source, rating: .rejected)[0]
        #expect(rejected.image.rgba8 == plain.image.rgba8)
        #expect(rejected.rating == .rejected)
        // No rating given and none in the file: nothing drawn, nothing recorded.
        let unrated = try thumbnailer.thumbnails(of: Self.source)[0]
        #expect(unrated.image.rgba8 == plain.image.rgba8)
        #expect(unrated.rating == nil)
        // Zero stars is a rating: outlined empty stars.
        let zero = try thumbnailer.thumbnails(of: Self.source, rating: .stars(0))[0].image
        #expect(zero.rgba8 != plain.image.rgba8)
    }

    @Test func thePlateSitsUnderTheBadgeAndAQuarterCellBeyondIt() throws {
        var style = RatingBadgeStyle()
        style.plate = Color(red: 0, green: 0, blue: 0, alpha: 128)
        style.cellSize = 12
        let plain = try Thumbnailer(options: Self.options(nil)).thumbnails(of: Self.source)[0].image
        let badged = try Thumbnailer(options: Self.options(style)).thumbnails(of: Self.source, rating: .stars(5))[0].image
        let badge = try Self.starsBadge(style, cell: 12, rating: 5, scale: 1)
        let padding = 3
        let plateWidth = badge.width + 2 * padding, plateHeight = badge.height + 2 * padding
        let x = 120 - 4 - plateWidth, y = 90 - 4 - plateHeight
        // The plate's middle row, left of the first star: darkened by half.
        let p = JPEGFixtures.pixel(plain, x + 1, y + plateHeight / 2), q = JPEGFixtures.pixel(badged, x + 1, y + plateHeight / 2)
        #expect(q[0] < p[0] && q[1] < p[1] && q[3] == 255)
        // Outside the plate, untouched.
        #expect(JPEGFixtures.pixel(plain, x - 1, y + 2) == JPEGFixtures.pixel(badged, x - 1, y + 2))
        // The badge composited over the plated thumbnail: where a star is opaque, the star.
        let stars = badge.rgba8
        for by in 0..<badge.height {
            for bx in 0..<badge.width where stars[(by * badge.width + bx) * 4 + 3] == 255 {
                let j = (by * badge.width + bx) * 4
                #expect(JPEGFixtures.pixel(badged, x + padding + bx, y + padding + by) == stars[j..<j + 4].map(Int.init))
            }
        }
    }

    @Test func containsBadgeGoesOnThePictureNotItsMargins() throws {
        let size = ThumbnailSize(width: 120, height: 120, mode: .contain)
        var style = RatingBadgeStyle()
        style.corner = .southWest
        let plain = try Thumbnailer(options: Self.options(nil, size: size)).thumbnails(of: Self.source)[0].image
        let badged = try Thumbnailer(options: Self.options(style, size: size)).thumbnails(of: Self.source, rating: .stars(2))[0].image
        // 600x400 in 120x120: the picture is 120x80 at y = 20; its bottom margin (y ≥ 100) is untouched.
        let a = plain.rgba8, b = badged.rgba8
        #expect(a[(100 * 120 * 4)...] == b[(100 * 120 * 4)...])
        #expect(a[..<(100 * 120 * 4)] != b[..<(100 * 120 * 4)])
    }

    @Test func aBadgeTooLargeForThePictureFailsThatPictureClearly() throws {
        var style = RatingBadgeStyle()
        style.cellSize = 40
        let panorama = ImageSource.bytes(try PNGEncoder().encode(TestPatterns.gradient(400, 40)))
        #expect(throws: ThumbnailError.badgeDoesNotFit(badgeWidth: 204, badgeHeight: 40, pictureWidth: 120, pictureHeight: 12)) {
            try Thumbnailer(options: Self.options(style, size: ThumbnailSize(width: 120, height: 90))).thumbnails(of: panorama, rating: .stars(1))
        }
    }

    /// The default look: the stars command's badge file over the halo, which is drawn under it
    /// and reaches `haloReach` pixels past it; nothing beyond that changes.
    @Test(arguments: [1, 2, 3])
    func theHaloGoesUnderTheStarsCommandsBadge(scale: Int) throws {
        let style = RatingBadgeStyle()
        #expect(style.halo == RatingBadgeStyle.defaultHalo)
        let plain = try Thumbnailer(options: Self.options(nil)).thumbnails(of: Self.source, scales: [scale])[0]
        let badged = try Thumbnailer(options: Self.options(style)).thumbnails(of: Self.source, scales: [scale], rating: .stars(2))[0]
        let badge = try Self.starsBadge(style, cell: 13, rating: 2, scale: scale)
        let halo = try #require(style.haloImage(around: badge, cellSize: 13, scale: scale))
        let reach = style.haloReach(cellSize: 13) * scale
        #expect(reach == 2 * scale && halo.width == badge.width + 2 * reach)
        let x = 120 * scale - 4 * scale - badge.width, y = 90 * scale - 4 * scale - badge.height
        let composited = plain.image.compositing(halo, x: x - reach, y: y - reach).compositing(badge, x: x, y: y) == badged.image
        #expect(composited)
        // A plate replaces the halo: no rim around a badge already on its plate.
        var plated = style
        plated.plate = Color(red: 0, green: 0, blue: 0, alpha: 128)
        #expect(plated.haloImage(around: badge, cellSize: 13, scale: scale) == nil)
    }

    @Test func aboveThreeTimesTheBadgeIsTheSameGeometryMagnified() throws {
        var style = RatingBadgeStyle()
        style.halo = nil
        let four = try Thumbnailer(options: Self.options(style)).thumbnails(of: Self.source, scales: [4], rating: .stars(4))[0]
        let plain = try Thumbnailer(options: Self.options(nil)).thumbnails(of: Self.source, scales: [4])[0]
        let badge = try style.render(stars: 4, cellSize: 13, scale: 4)
        #expect(badge.width == (5 * 13 + 4) * 4 && badge.height == 13 * 4)
        let composited = plain.image.compositing(badge, x: 480 - 16 - badge.width, y: 360 - 16 - badge.height) == four.image
        #expect(composited)
    }

    @Test func theSettingsDescriptionRecordsTheBadgeAndReadsBack() throws {
        var style = RatingBadgeStyle()
        style.corner = .northEast
        style.cellSize = 10
        style.plate = Color(red: 0, green: 0, blue: 0, alpha: 96)
        style.empty = Color(red: 1, green: 2, blue: 3)
        style.outline = nil
        style.outlineWidth = 0.5
        style.fillMode = .precise
        let options = Self.options(style)
        #expect(options.canonicalDescription.contains(";badge=northeast;badge-size=10;badge-margin=4;badge-spacing=1;badge-plate=00000060;"))
        let back = try ThumbnailOptions(canonicalDescription: options.canonicalDescription)
        #expect(back.ratingBadge == style)
        #expect(back.canonicalDescription == options.canonicalDescription)
        #expect(options.canonicalDescription.contains(";badge-plate=00000060;badge-halo=000000e6;"))
        // A description recorded before halos existed reads back as made without one.
        let older = options.canonicalDescription.split(separator: ";").filter { !$0.hasPrefix("badge-halo=") }.joined(separator: ";")
        #expect(try ThumbnailOptions(canonicalDescription: older).ratingBadge?.halo == nil)
        // Without a badge, the description is what it always was.
        #expect(!Self.options(nil).canonicalDescription.contains("badge"))
        #expect(try ThumbnailOptions(canonicalDescription: Self.options(nil).canonicalDescription).ratingBadge == nil)
    }
}
