import Testing
import ThumbKit

@Suite("FitPlan")
struct FitPlanTests {
    static let insideExamples: [(Int, Int, Int, Int)] = [
        (4000, 3000, 256, 192), (3000, 4000, 192, 256), (1024, 346, 256, 87), (346, 1024, 87, 256),
        (1000, 3, 256, 1), (3, 1000, 1, 256), (257, 256, 256, 255), (512, 512, 256, 256),
    ]

    @Test(arguments: insideExamples)
    func insideRoundsHalfUpExactly(_ w: Int, _ h: Int, _ ow: Int, _ oh: Int) {
        let plan = FitPlan(sourceWidth: w, sourceHeight: h, boxWidth: 256, boxHeight: 256)
        #expect(plan.width == ow && plan.height == oh)
        #expect(plan.region == Rect(width: w, height: h))
        #expect(plan.canvasWidth == ow && plan.canvasHeight == oh && plan.x == 0 && plan.y == 0)
    }

    @Test func insideNeverEnlargesUnlessAsked() {
        let small = FitPlan(sourceWidth: 100, sourceHeight: 50, boxWidth: 256, boxHeight: 256)
        #expect(small.width == 100 && small.height == 50)
        #expect(small.isIdentity(sourceWidth: 100, sourceHeight: 50))
        let enlarged = FitPlan(sourceWidth: 100, sourceHeight: 50, boxWidth: 256, boxHeight: 256, mode: .inside, enlarge: true)
        #expect(enlarged.width == 256 && enlarged.height == 128)
        // One side too big: shrinks.
        let wide = FitPlan(sourceWidth: 300, sourceHeight: 100, boxWidth: 256, boxHeight: 256)
        #expect(wide.width == 256 && wide.height == 85)
        // Enlarge-only leaves big sources alone and enlarges small ones.
        let big = FitPlan(sourceWidth: 4000, sourceHeight: 3000, boxWidth: 256, boxHeight: 256, scale: .enlargeOnly)
        #expect(big.width == 4000 && big.height == 3000)
        let tiny = FitPlan(sourceWidth: 10, sourceHeight: 20, boxWidth: 256, boxHeight: 256, scale: .enlargeOnly)
        #expect(tiny.width == 128 && tiny.height == 256)
    }

    @Test func coverCropsCentredRegion() {
        let plan = FitPlan(sourceWidth: 4000, sourceHeight: 3000, boxWidth: 256, boxHeight: 256, mode: .cover)
        #expect(plan.width == 256 && plan.height == 256)
        #expect(plan.region == Rect(x: 500, y: 0, width: 3000, height: 3000))
        // Fractional origin: (1001 − 600) / 2.
        let odd = FitPlan(sourceWidth: 1001, sourceHeight: 300, boxWidth: 200, boxHeight: 100, mode: .cover)
        #expect(odd.region == Rect(x: 200.5, y: 0, width: 600, height: 300))
        #expect(odd.width == 200 && odd.height == 100)
        // Tall source into a wide box: full width, cropped height.
        let tall = FitPlan(sourceWidth: 300, sourceHeight: 900, boxWidth: 200, boxHeight: 100, mode: .cover)
        #expect(tall.region == Rect(x: 0, y: 375, width: 300, height: 150))
    }

    static let gravities: [(Gravity, Double, Double)] = [
        (.centre, 500, 0), (.west, 0, 0), (.east, 1000, 0), (.north, 500, 0), (.south, 500, 0),
        (.northWest, 0, 0), (.northEast, 1000, 0), (.southWest, 0, 0), (.southEast, 1000, 0),
    ]

    @Test(arguments: gravities)
    func coverGravityOnWideSource(_ gravity: Gravity, _ x: Double, _ y: Double) {
        let plan = FitPlan(sourceWidth: 4000, sourceHeight: 3000, boxWidth: 256, boxHeight: 256, mode: .cover, gravity: gravity)
        #expect(plan.region == Rect(x: x, y: y, width: 3000, height: 3000))
    }

    @Test func coverGravityOnTallSource() {
        func y(_ g: Gravity) -> Double {
            FitPlan(sourceWidth: 300, sourceHeight: 900, boxWidth: 100, boxHeight: 100, mode: .cover, gravity: g).region.y
        }
        #expect(y(.north) == 0 && y(.northEast) == 0 && y(.centre) == 300 && y(.east) == 300
                && y(.south) == 600 && y(.southWest) == 600)
    }

    /// A source too small to cover the box is cropped to the box's aspect ratio on whole pixels,
    /// unscaled, at the gravity position.
    @Test func coverDoesNotEnlargeSmallSources() {
        let plan = FitPlan(sourceWidth: 300, sourceHeight: 200, boxWidth: 256, boxHeight: 256, mode: .cover)
        #expect(plan.width == 200 && plan.height == 200)
        #expect(plan.region == Rect(x: 50, y: 0, width: 200, height: 200))
        let east = FitPlan(sourceWidth: 301, sourceHeight: 200, boxWidth: 256, boxHeight: 256, mode: .cover, gravity: .east)
        #expect(east.region == Rect(x: 101, y: 0, width: 200, height: 200))
        // Odd free space rounds the centred origin down to a whole pixel.
        let odd = FitPlan(sourceWidth: 301, sourceHeight: 200, boxWidth: 256, boxHeight: 256, mode: .cover)
        #expect(odd.region.x == 50)
        let enlarged = FitPlan(sourceWidth: 300, sourceHeight: 200, boxWidth: 256, boxHeight: 256, mode: .cover, enlarge: true)
        #expect(enlarged.width == 256 && enlarged.height == 256)
        #expect(enlarged.region == Rect(x: 50, y: 0, width: 200, height: 200))
    }

    @Test func containCentresOnCanvas() {
        let plan = FitPlan(sourceWidth: 4000, sourceHeight: 3000, boxWidth: 256, boxHeight: 256, mode: .contain)
        #expect(plan.width == 256 && plan.height == 192)
        #expect(plan.canvasWidth == 256 && plan.canvasHeight == 256 && plan.x == 0 && plan.y == 32)
        let south = FitPlan(sourceWidth: 4000, sourceHeight: 3000, boxWidth: 256, boxHeight: 256, mode: .contain, gravity: .south)
        #expect(south.y == 64)
        let small = FitPlan(sourceWidth: 100, sourceHeight: 51, boxWidth: 256, boxHeight: 256, mode: .contain)
        #expect(small.width == 100 && small.height == 51 && small.x == 78 && small.y == 102)
    }

    @Test func fillStretches() {
        let plan = FitPlan(sourceWidth: 4000, sourceHeight: 3000, boxWidth: 256, boxHeight: 100, mode: .fill)
        #expect(plan.width == 256 && plan.height == 100 && plan.region == Rect(width: 4000, height: 3000))
        let partly = FitPlan(sourceWidth: 100, sourceHeight: 500, boxWidth: 256, boxHeight: 256, mode: .fill)
        #expect(partly.width == 100 && partly.height == 256)
        let forced = FitPlan(sourceWidth: 100, sourceHeight: 500, boxWidth: 256, boxHeight: 256, mode: .fill, enlarge: true)
        #expect(forced.width == 256 && forced.height == 256)
    }

    @Test func planFromParsedSize() throws {
        let plan = FitPlan(sourceWidth: 4000, sourceHeight: 3000, size: try ThumbnailSize(parsing: "256x256^"), gravity: .west)
        #expect(plan.width == 256 && plan.height == 256 && plan.region.x == 0)
    }

    @Test func gravityNames() {
        #expect(Gravity(name: "center") == .centre)
        #expect(Gravity(name: "North-East") == .northEast)
        #expect(Gravity(name: "south_west") == .southWest)
        #expect(Gravity(name: "up") == nil)
        for g in Gravity.allCases { #expect(Gravity(name: g.rawValue) == g) }
    }
}
