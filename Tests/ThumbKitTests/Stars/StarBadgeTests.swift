import Foundation
import Testing
import ThumbKit

/// Star badge geometry, fill modes, naming, asset catalogs and validation.
@Suite struct StarBadgeTests {
    /// A single white star, nothing else: alpha should be exactly its coverage.
    static func whiteStar(size: Int, rating: Double = 1, mode: StarBadge.FillMode = .precise,
                          fill: Color = .white, empty: Color? = nil) throws -> StarBadge {
        try StarBadge(rating: rating, slots: 1, size: size, spacing: 0, fill: fill, empty: empty,
                      outline: nil, outlineWidth: 0, fillMode: mode)
    }

    @Test(arguments: [16, 32, 48])
    func whiteStarAlphaIsExactCoverage(size: Int) throws {
        let badge = try Self.whiteStar(size: size)
        let image = Image(try badge.render(scale: 1))
        let star = badge.star(0, scale: 1)
        let px = image.rgba8
        var worst = 0.0
        for y in 0..<size {
            for x in 0..<size {
                let i = (y * size + x) * 4
                let exact = clippedArea(star.vertices, x: x, y: y) * 255
                worst = max(worst, abs(Double(px[i + 3]) - exact))
                if px[i + 3] > 0 { #expect(px[i] == 255 && px[i + 1] == 255 && px[i + 2] == 255) }
            }
        }
        #expect(worst <= 0.5 + 1e-4, "alpha off exact coverage by \(worst)")
    }

    @Test(arguments: [(0.5, StarBadge.FillMode.half), (0.3, .precise), (0.87, .precise), (0.02, .precise)])
    func splitIsExactCoverage(rating: Double, mode: StarBadge.FillMode) throws {
        for size in [16, 32, 48] {
            let filledOnly = try Self.whiteStar(size: size, rating: rating, mode: mode)
            let emptyOnly = try Self.whiteStar(size: size, rating: rating, mode: mode,
                                               fill: Color(red: 0, green: 0, blue: 0, alpha: 0), empty: .white)
            let both = try Self.whiteStar(size: size, rating: rating, mode: mode, fill: .white, empty: .black)
            let star = filledOnly.star(0, scale: 1)
            let split = star.cx + (2 * mode.rounded(rating) - 1) * star.outerRadius * sin(72 * Double.pi / 180)
            if mode == .half { #expect(split == star.cx) }
            let f = try filledOnly.render(scale: 1), e = try emptyOnly.render(scale: 1), b = try both.render(scale: 1)
            for y in 0..<size {
                for x in 0..<size {
                    let left = clippedArea(star.vertices, x: x, y: y, maxX: split)
                    let right = clippedArea(star.vertices, x: x, y: y, minX: split)
                    #expect(abs(Double(f[x, y][3]) - left) < 1e-5)
                    #expect(abs(Double(e[x, y][3]) - right) < 1e-5)
                    // Filled and empty parts tile the star: no seam at the split.
                    #expect(abs(Double(b[x, y][3]) - clippedArea(star.vertices, x: x, y: y)) < 1e-5)
                }
            }
        }
    }

    @Test func outlineIsRingInsideTheStar() throws {
        let badge = try StarBadge(rating: 0, slots: 1, size: 32, spacing: 0, fill: .white, empty: nil,
                                  outline: .white, outlineWidth: 1.5)
        let bitmap = try badge.render(scale: 2)
        let star = badge.star(0, scale: 2)
        let inset = try #require(star.inset(by: 3))
        for y in 0..<64 {
            for x in 0..<64 {
                let ring = clippedArea(star.vertices, x: x, y: y) - clippedArea(inset.vertices, x: x, y: y)
                #expect(abs(Double(bitmap[x, y][3]) - ring) < 1e-5)
            }
        }
        // The inset star's edges are parallel to the star's at distance 3.
        #expect(abs(star.edgeDistance - inset.edgeDistance - 3) < 1e-12)
    }

    @Test func starGeometryFollowsTheSpec() throws {
        let badge = try StarBadge(rating: 5, slots: 5, size: 16, spacing: 1)
        let star = badge.star(2, scale: 3)
        #expect(star.outerRadius == 24)
        #expect(star.cx == 2 * 51 + 24)
        #expect(star.cy == 24 + 0.0954915 * 24)
        let v = star.vertices
        #expect(abs(v[0].x - star.cx) < 1e-12 && abs(v[0].y - (star.cy - 24)) < 1e-12)
        #expect(abs(hypot(v[1].x - star.cx, v[1].y - star.cy) - 24 * 0.381966) < 1e-12)
        for k in 0..<10 {
            let theta = (-90 + 36 * Double(k)) * Double.pi / 180
            let rho = k % 2 == 0 ? 24 : 24 * 0.381966
            #expect(abs(v[k].x - (star.cx + rho * cos(theta))) < 1e-12)
            #expect(abs(v[k].y - (star.cy + rho * sin(theta))) < 1e-12)
        }
        #expect(Path.star(cx: star.cx, cy: star.cy, outerRadius: 24) == star.path)
        // Bounding box centred vertically in the cell.
        let ys = v.map(\.y)
        #expect(abs((ys.min()! + ys.max()!) / 2 - 24) < 1e-5)
    }

    @Test(arguments: [(5, 16, 1, 84), (1, 16, 0, 16), (3, 20, 4, 68), (10, 7, 2, 88)])
    func badgeDimensions(slots: Int, size: Int, spacing: Int, width: Int) throws {
        let badge = try StarBadge(rating: 1, slots: slots, size: size, spacing: spacing, outlineWidth: 0)
        for scale in 1...3 {
            let bitmap = try badge.render(scale: scale)
            #expect(bitmap.width == width * scale && bitmap.height == size * scale)
            #expect(badge.pixelWidth(scale: scale) == width * scale)
        }
    }

    @Test func fillLevelsFollowCosmosModes() throws {
        func levels(_ rating: Double, _ mode: StarBadge.FillMode) throws -> [Double] {
            let badge = try StarBadge(rating: rating, fillMode: mode)
            return (0..<5).map(badge.fillLevel(ofStar:))
        }
        #expect(try levels(2.5, .full) == [1, 1, 1, 0, 0])
        #expect(try levels(2.4, .full) == [1, 1, 0, 0, 0])
        #expect(try levels(2.3, .half) == [1, 1, 0.5, 0, 0])
        #expect(try levels(2.2, .half) == [1, 1, 0, 0, 0])
        #expect(try levels(2.75, .half) == [1, 1, 1, 0, 0])
        #expect(try levels(2.25, .precise) == [1, 1, 0.25, 0, 0])
    }

    @Test func defaultNames() throws {
        let format = BadgeNameFormat.default
        #expect(format.fileName(rating: 1, scale: 1) == "1StarSmall.png")
        #expect(format.fileName(rating: 2, scale: 1) == "2StarsSmall.png")
        #expect(format.fileName(rating: 0, scale: 2) == "0StarsSmall@2x.png")
        #expect(format.fileName(rating: 4.5, scale: 3) == "4.5StarsSmall@3x.png")
        let custom = try BadgeNameFormat("rating-%r_100%%")
        #expect(custom.fileName(rating: 3, scale: 2) == "rating-3_100%@2x.png")
        #expect(throws: StarBadgeError.self) { try BadgeNameFormat("stars%d") }
        #expect(throws: StarBadgeError.self) { try BadgeNameFormat("a/%r") }
        #expect(throws: StarBadgeError.self) { try BadgeNameFormat("stars%") }
    }

    @Test func validationErrorsNameTheField() throws {
        func message(_ body: () throws -> Void) -> String {
            do { try body() } catch let error as StarBadgeError { return error.message } catch { return "\(error)" }
            return ""
        }
        #expect(message { _ = try StarBadge(rating: 6) }.hasPrefix("ratings: rating 6 is above slots 5"))
        #expect(message { _ = try StarBadge(rating: -1) }.hasPrefix("ratings:"))
        #expect(message { _ = try StarBadge(rating: 1, size: 0) }.hasPrefix("size:"))
        #expect(message { _ = try StarBadge(rating: 1, slots: 0) }.hasPrefix("slots:"))
        #expect(message { _ = try StarBadge(rating: 1, slots: 20, size: 512, spacing: 512) }.hasPrefix("size: a badge of"))
        #expect(message { _ = try StarBadge(rating: 1, outlineWidth: 3) }.hasPrefix("outlineWidth:"))
        #expect(message { _ = try StarBadgeSpec.parseColor("ff00", field: "fill") } == "fill: 'ff00' is not a colour (expected RRGGBB or RRGGBBAA)")
        #expect(message { _ = try StarBadgeSpec.parseOptionalColor("nope", field: "empty") }.hasPrefix("empty:"))
        #expect(message { _ = try StarBadgeSpec.parseScales("1,4") }.hasPrefix("scales: '4'"))
        #expect(message { _ = try StarBadgeSpec.parseRatings("1,x") }.hasPrefix("ratings:"))
        #expect(message { _ = try StarBadgeSpec.parseFillMode("most") }.hasPrefix("fillMode:"))
        var spec = StarBadgeSpec()
        spec.ratings = [1, 2]
        spec.nameFormat = (try? BadgeNameFormat("stars")) ?? .default
        #expect(message { _ = try StarBadgeSet(spec: spec) }.hasPrefix("name:"))
        #expect(try StarBadgeSpec.parseOptionalColor("none", field: "empty") == nil)
        #expect(try StarBadgeSpec.parseScales("1x, 3") == [1, 3])
        // A caller spells the fields its own way: the command line as flags.
        let tooLarge = StarBadgeError.tooLarge(width: 3, height: 4)
        #expect(tooLarge.message(naming: { "--" + $0 }) == "--size: a badge of 3×4 pixels at @3x is above the limit of \(StarBadge.maxPixels) pixels (reduce --size, --slots or --spacing)")
    }

    /// A fractional rating draws what it says unless a fill mode that rounds is asked for.
    @Test func aFractionalRatingDrawsItsFractionByDefault() throws {
        let byDefault = try StarBadge(rating: 3.5).render(scale: 1)
        let half = try StarBadge(rating: 3.5, fillMode: .half).render(scale: 1)
        let four = try StarBadge(rating: 4).render(scale: 1)
        #expect(byDefault == half && byDefault != four)
        #expect(try StarBadge(rating: 3.5, fillMode: .full).render(scale: 1) == four)
        #expect(try StarBadge(rating: 3).render(scale: 1) == StarBadge(rating: 3, fillMode: .full).render(scale: 1))
    }

    @Test func imageSetContentsMatchesXcode() {
        let expected = """
            {
              "images" : [
                {
                  "filename" : "2StarsSmall.png",
                  "idiom" : "universal",
                  "scale" : "1x"
                },
                {
                  "idiom" : "universal",
                  "scale" : "2x"
                },
                {
                  "filename" : "2StarsSmall@3x.png",
                  "idiom" : "universal",
                  "scale" : "3x"
                }
              ],
              "info" : {
                "author" : "xcode",
                "version" : 1
              }
            }

            """
        #expect(AssetCatalog.imageSetContents(files: [1: "2StarsSmall.png", 3: "2StarsSmall@3x.png"]) == expected)
        let parsed = try? JSONSerialization.jsonObject(with: Data(AssetCatalog.rootContents.utf8)) as? [String: Any]
        #expect((parsed?["info"] as? [String: Any])?["author"] as? String == "xcode")
    }

    @Test func assetCatalogLayout() throws {
        let dir = NSTemporaryDirectory() + "thumbgen-xcassets-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var spec = StarBadgeSpec()
        spec.ratings = [1, 4.5]
        spec.fillMode = .half
        let paths = try StarBadgeSet(spec: spec).render().writeAssetCatalog(to: dir + "/Stars.xcassets")
        let relative = paths.map { String($0.dropFirst(dir.count + 1)) }
        #expect(relative == [
            "Stars.xcassets/Contents.json",
            "Stars.xcassets/1StarSmall.imageset/1StarSmall.png",
            "Stars.xcassets/1StarSmall.imageset/1StarSmall@2x.png",
            "Stars.xcassets/1StarSmall.imageset/1StarSmall@3x.png",
            "Stars.xcassets/1StarSmall.imageset/Contents.json",
            "Stars.xcassets/4.5StarsSmall.imageset/4.5StarsSmall.png",
            "Stars.xcassets/4.5StarsSmall.imageset/4.5StarsSmall@2x.png",
            "Stars.xcassets/4.5StarsSmall.imageset/4.5StarsSmall@3x.png",
            "Stars.xcassets/4.5StarsSmall.imageset/Contents.json",
        ])
        let contents = try String(contentsOfFile: dir + "/Stars.xcassets/4.5StarsSmall.imageset/Contents.json", encoding: .utf8)
        #expect(contents == AssetCatalog.imageSetContents(files: [
            1: "4.5StarsSmall.png", 2: "4.5StarsSmall@2x.png", 3: "4.5StarsSmall@3x.png",
        ]))
        let png = try PNGDecoder.decode(path: dir + "/Stars.xcassets/4.5StarsSmall.imageset/4.5StarsSmall@2x.png")
        #expect(png.width == 168 && png.height == 32)
    }

    @Test func specRoundTripsThroughJSON() throws {
        var spec = StarBadgeSpec()
        spec.empty = Color(red: 1, green: 2, blue: 3, alpha: 4)
        spec.outline = nil
        spec.ratings = [0, 2.5]
        spec.scales = [2]
        spec.outlineWidth = 0.75
        let again = try StarBadgeSpec(json: Array(spec.json.utf8))
        #expect(again == spec)
        #expect(throws: StarBadgeError.self) { try StarBadgeSpec(json: Array("{\"slotz\": 3}".utf8)) }
    }
}

/// A scale outside @1x…@3x throws instead of trapping.
@Suite struct StarBadgeScaleTests {
    @Test(arguments: [0, 4, -1, Int.max])
    func unsupportedScalesThrow(scale: Int) throws {
        let badge = try StarBadge(rating: 3)
        #expect(throws: StarBadgeError.unsupportedScale(scale)) { try badge.render(scale: scale) }
        #expect(StarBadgeError.unsupportedScale(scale).message == "scale \(scale) is not 1, 2 or 3")
    }
}
