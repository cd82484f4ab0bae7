import Testing
import TestSupport
@testable import ThumbKit

/// Many outputs from one decode: widths (eleventy-img's collapse rule), format lists, exact
/// scales, one decode plan for the largest output, and open-sided boxes.
@Suite struct ThumbnailSetTests {
    static let cat = Fixtures.path("photos/cat-rgba8.png")   // 320×480

    // MARK: Widths

    /// eleventy-img's `getValidWidths` with its default `minimumThreshold` of 1.25.
    @Test func widthsCollapseAsEleventyImgDoes() {
        func resolve(_ widths: [Int], _ source: Int, auto: Bool = false, enlarge: Bool = false) -> [Int] {
            ThumbnailSet.Width.resolve(widths.map { .pixels($0) } + (auto ? [.source] : []), sourceWidth: source, enlarge: enlarge)
        }
        // All below the source: kept, sorted, each once.
        #expect(resolve([640, 320, 1280, 320], 4000) == [320, 640, 1280])
        // Above the source: the source width instead, once, because 640 × 1.25 = 800 < 1000.
        #expect(resolve([320, 640, 1280, 1920], 1000) == [320, 640, 1000])
        // 900 × 1.25 = 1125 ≥ 1000: the source width is not worth adding.
        #expect(resolve([320, 900, 1280], 1000) == [320, 900])
        // Exactly 1.25 × (800 × 1.25 = 1000 is not < 1000): not added either.
        #expect(resolve([800, 1280], 1000) == [800])
        // Every width above the source: the source width alone.
        #expect(resolve([320, 640], 200) == [200])
        // `auto` is the source's width, always.
        #expect(resolve([320], 1000, auto: true) == [320, 1000])
        #expect(resolve([900, 1280], 1000, auto: true) == [900, 1000])
        // With enlarging allowed every width is made.
        #expect(resolve([320, 640, 1280], 1000, enlarge: true) == [320, 640, 1280])
        #expect(ThumbnailSet.Width(parsing: "auto") == .source && ThumbnailSet.Width(parsing: "640") == .pixels(640))
        for bad in ["0", "-1", "1048577", "x", "", "64.5"] { #expect(ThumbnailSet.Width(parsing: bad) == nil, "\(bad)") }
    }

    @Test func widthsAreNamedAndSizedByTheirRealWidth() throws {
        let set = ThumbnailSet(options: ThumbnailOptions(), widths: [.pixels(100), .pixels(200), .pixels(500)],
                               formats: [.png, .webp(WebPEncoder(lossless: true))])
        let thumbnails = try Thumbnailer(set: set).thumbnails(of: .file(Self.cat))
        // 500 > 320: collapsed onto 320 (200 × 1.25 = 250 < 320); heights in proportion (480/320).
        #expect(thumbnails.map(\.variant.width) == [100, 100, 200, 200, 320, 320])
        #expect(thumbnails.map(\.image.width) == [100, 100, 200, 200, 320, 320])
        #expect(thumbnails.map(\.image.height) == [150, 150, 300, 300, 480, 480])
        #expect(thumbnails.map(\.format.name) == ["png", "webp", "png", "webp", "png", "webp"])
        // Every format of one size is made from the same pixels.
        for pair in stride(from: 0, to: thumbnails.count, by: 2) {
            #expect(thumbnails[pair].image == thumbnails[pair + 1].image)
            #expect(try ImageSource.bytes(thumbnails[pair + 1].bytes).decodeAsStored().rgba8 == thumbnails[pair].image.rgba8, "lossless WebP holds them")
        }
        // The source's own width is its pixels exactly.
        #expect(thumbnails[4].image == (try ImageSource.file(Self.cat).decodeAsStored()).converted8())
    }

    /// Without shrink-on-load every output of a set is exactly what a run for that output alone
    /// makes: one decode, then each size resampled from it with thumbgen's filter.
    @Test func eachOutputOfASetIsTheSingleOutput() throws {
        var options = ThumbnailOptions()
        options.shrinkOnLoad = false
        options.cornerRadius = 9
        let set = ThumbnailSet(options: options, widths: [.pixels(90), .pixels(211)], scales: [1, 2],
                               formats: [.png, .jpeg(JPEGEncoder())])
        let made = try Thumbnailer(set: set).thumbnails(of: .file(Self.cat))
        #expect(made.count == 8)
        for thumbnail in made {
            var single = options
            single.size = ThumbnailSize(width: thumbnail.variant.width!, height: ThumbnailSize.open)
            single.format = thumbnail.format
            let alone = try Thumbnailer(options: single).thumbnails(of: .file(Self.cat), scales: [thumbnail.scale.wholeValue!])[0]
            #expect(alone.bytes == thumbnail.bytes, "\(thumbnail.variant)")
        }
        // JPEG has no alpha: its pixels are the PNG's flattened on white (the rounded corners).
        #expect(made[0].image.rgba8[3] == 0 && made[1].image.rgba8[0...3] == [255, 255, 255, 255])
    }

    /// The decode is planned for the largest output: a JPEG that one small width alone would
    /// decode at 1/8 decodes at 1/2 when a large width shares it.
    @Test func oneDecodePlanServesTheLargestOutput() throws {
        let pixels = JPEGFixtures.rgb(width: 2048, height: 1536) { x, y in (UInt8(x % 256), UInt8(y % 256), 128) }
        let jpeg = JPEGFixtures.encode(pixels, width: 2048, height: 1536)
        func reduction(_ widths: [Int]) throws -> Int {
            let decoder = try ImageSource.bytes(jpeg).openDecoder(limits: .default)
            let set = ThumbnailSet(options: ThumbnailOptions(), widths: widths.map { .pixels($0) })
            return DecodePlan(header: decoder.header, decoder: type(of: decoder), options: set.options) { width, height in
                set.plannedVariants(sourceWidth: width, sourceHeight: height).map(\.plan)
            }.reduction
        }
        #expect(try reduction([100]) == 8)
        #expect(try reduction([100, 500]) == 2)
        #expect(try reduction([100, 500, 1200]) == 1)
        // The small output from the shared decode is still the right size.
        let set = ThumbnailSet(options: ThumbnailOptions(), widths: [.pixels(100), .pixels(500)])
        #expect(try Thumbnailer(set: set).thumbnails(of: .bytes(jpeg)).map { "\($0.image.width)x\($0.image.height)" } == ["100x75", "500x375"])
    }

    // MARK: Scales

    /// @Nx is exactly N times @1x in both dimensions, also where the box at N× would round the
    /// other way (1000×333 into 128: 128×43, and 2× is 256×86, not 256×85).
    @Test func scaledOutputsAreExactMultiples() throws {
        let image = TestPatterns.gradient(1000, 333)
        let set = ThumbnailSet(options: ThumbnailOptions(), scales: [Scale(thousandths: 750), 1, Scale(thousandths: 1500), 2, 3, 4])
        let base = try #require(set.plannedVariants(sourceWidth: 1000, sourceHeight: 333).first { $0.variant.scale == 1 })
        #expect(base.plan.width == 128 && base.plan.height == 43)
        for planned in set.plannedVariants(sourceWidth: 1000, sourceHeight: 333) {
            #expect(planned.plan.width == planned.variant.scale.apply(to: 128) && planned.plan.height == planned.variant.scale.apply(to: 43),
                    "\(planned.variant.scale)")
        }
        #expect(set.plannedVariants(sourceWidth: 1000, sourceHeight: 333).map { "\($0.plan.width)x\($0.plan.height)" }
                == ["96x32", "128x43", "192x65", "256x86", "384x129", "512x172"])
        // Contain keeps its canvas a multiple too, the image placed by gravity on it.
        var contain = ThumbnailOptions(size: ThumbnailSize(width: 60, height: 60, mode: .contain))
        contain.gravity = .south
        let plan = FitPlan(sourceWidth: 100, sourceHeight: 30, size: contain.size, gravity: .south).scaled(by: 3, gravity: .south)
        #expect(plan.canvasWidth == 180 && plan.canvasHeight == 180 && plan.width == 180 && plan.height == 54 && plan.y == 126)
        _ = try Thumbnailer(options: ThumbnailOptions()).thumbnail(of: image)
    }

    /// An @3x of a 16-pixel icon is 48×48, enlarged, with one warning naming the scale; with
    /// `strictScales` it is an error instead.
    @Test func scalesBeyondTheSourceAreEnlargedWithOneWarning() throws {
        let icon = TestPatterns.checkerboard(16, 16, cell: 3)
        let bytes = try PNGEncoder().encode(icon)
        let set = ThumbnailSet(options: ThumbnailOptions(size: ThumbnailSize(width: 16, height: 16)), scales: [1, 3])
        let made = try Thumbnailer(set: set).thumbnails(of: .bytes(bytes))
        #expect(made.map { "\($0.image.width)x\($0.image.height)" } == ["16x16", "48x48"])
        #expect(made[0].warnings == ["enlarged beyond the 16x16 source for @3x (48x48)"] && made[1].warnings == made[0].warnings)
        #expect(made[0].image == icon, "@1x is the icon itself")
        var strict = set
        strict.strictScales = true
        #expect(throws: ThumbnailError.scaleNeedsEnlarging(scale: 3, width: 48, height: 48, sourceWidth: 16, sourceHeight: 16)) {
            try Thumbnailer(set: strict).thumbnails(of: .bytes(bytes))
        }
        // Allowed to enlarge, nobody is warned.
        var enlarging = set
        enlarging.options.size.scale = .any
        #expect(try Thumbnailer(set: enlarging).thumbnails(of: .bytes(bytes))[0].warnings.isEmpty)
        // A source with pixels enough: no warning.
        let big = try PNGEncoder().encode(TestPatterns.noise(64, 64, seed: 1))
        #expect(try Thumbnailer(set: set).thumbnails(of: .bytes(big)).allSatisfy { $0.warnings.isEmpty })
    }

    @Test func badgesNeedWholeScales() throws {
        var options = ThumbnailOptions()
        options.ratingBadge = RatingBadgeStyle()
        let set = ThumbnailSet(options: options, scales: [1, Scale(thousandths: 1500)])
        #expect(throws: ThumbnailError.badgeNeedsWholeScale(Scale(thousandths: 1500))) {
            try Thumbnailer(set: set).thumbnails(of: .file(Self.cat))
        }
    }

    // MARK: Boxes with one side

    @Test func openSidedBoxesParseAndFitInsideOnly() throws {
        let wide = try ThumbnailSize(parsing: "640x")
        #expect(wide.width == 640 && wide.height == ThumbnailSize.open && wide.hasOpenSide && wide.description == "640x")
        let tall = try ThumbnailSize(parsing: "x480<")
        #expect(tall.height == 480 && tall.width == ThumbnailSize.open && tall.scale == .enlargeOnly && tall.description == "x480<")
        for bad in ["640x^", "x480!", "x", "640xx", "0x"] {
            #expect(throws: ThumbnailSize.ParseError.self, "\(bad)") { try ThumbnailSize(parsing: bad) }
        }
        // Width 100 of the 320×480 cat: 100×150; height 120: 80×120.
        for (text, size) in [("100x", "100x150"), ("x120", "80x120")] {
            let options = ThumbnailOptions(size: try ThumbnailSize(parsing: text))
            let made = try Thumbnailer(options: options).thumbnails(of: .file(Self.cat))[0]
            #expect("\(made.image.width)x\(made.image.height)" == size)
            #expect(try ThumbnailOptions(canonicalDescription: options.canonicalDescription) == options)
        }
        var cover = ThumbnailOptions(size: try ThumbnailSize(parsing: "100x"))
        cover.size.mode = .cover
        #expect(throws: ThumbnailError.openBox(cover.size)) { try Thumbnailer(options: cover).thumbnails(of: .file(Self.cat)) }
    }

    // MARK: Settings

    @Test func aSetsSettingsRoundTrip() throws {
        var options = ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40, mode: .cover))
        options.cornerRadius = 6
        let sets = [
            ThumbnailSet(options: options),
            ThumbnailSet(options: options, scales: [1, 2, 3], formats: [.jpeg(JPEGEncoder(quality: 70))]),
            ThumbnailSet(options: ThumbnailOptions(), widths: [.pixels(320), .source], scales: [Scale(thousandths: 750), 1],
                         formats: [.webp(WebPEncoder(quality: 75)), .jpeg(JPEGEncoder(quality: 82, progressive: true, chroma: .full)), .png],
                         strictScales: true),
        ]
        for set in sets {
            let text = set.canonicalDescription
            let back = try ThumbnailSet(canonicalDescription: text)
            #expect(back == set, "\(text)")
        }
        // One format writes its fields as a single-format options description does.
        #expect(sets[1].canonicalDescription.hasSuffix(";format=jpeg;quality=70;chroma=420;progressive=off;scales=1,2,3"))
        #expect(sets[2].canonicalDescription.contains(";formats=webp,jpeg,png;webp:quality=75;"))
    }
}
