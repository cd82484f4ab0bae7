import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// thumbgen's resampler against the float64 `ReferenceResampler` with the default settings
/// (Lanczos-3, linear light, premultiplied alpha): every channel of every pixel within ±1.
@Suite("Resampler vs float64 reference")
struct ResamplerReferenceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let image: @Sendable () -> Image
        let width: Int
        let height: Int
        var region: Rect? = nil
        var testDescription: String { "\(name) → \(width)x\(height)" + (region.map { " from \($0)" } ?? "") }
    }

    static let synthetic: [Case] = [
        Case(name: "gradient 197x131", image: { TestPatterns.gradient(197, 131) }, width: 61, height: 40),
        Case(name: "gradient 40x30 up", image: { TestPatterns.gradient(40, 30) }, width: 97, height: 73),
        Case(name: "zone plate 256", image: { TestPatterns.zonePlate(256) }, width: 64, height: 64),
        Case(name: "zone plate 200 odd", image: { TestPatterns.zonePlate(200) }, width: 57, height: 83),
        Case(name: "noise+alpha 150x110", image: { TestPatterns.noise(150, 110, seed: 1) }, width: 41, height: 29),
        Case(name: "noise+alpha 30x20 up", image: { TestPatterns.noise(30, 20, seed: 2) }, width: 71, height: 45),
        Case(name: "noise+alpha 64x64 mixed", image: { TestPatterns.noise(64, 64, seed: 3) }, width: 100, height: 23),
        Case(name: "checkerboard 1px", image: { TestPatterns.checkerboard(120, 90, cell: 1) }, width: 37, height: 29),
        Case(name: "checkerboard 3px", image: { TestPatterns.checkerboard(120, 90, cell: 3) }, width: 50, height: 50),
        Case(name: "noise cover crop", image: { TestPatterns.noise(160, 90, seed: 4) }, width: 32, height: 32,
             region: Rect(x: 34.5, y: 0, width: 90, height: 90)),
        Case(name: "gradient fractional crop up", image: { TestPatterns.gradient(50, 50) }, width: 80, height: 60,
             region: Rect(x: 10.25, y: 7.75, width: 20.5, height: 30.3)),
        Case(name: "16-bit ramp", image: { TestPatterns.ramp16(90, 70) }, width: 31, height: 23),
    ]

    @Test(arguments: synthetic)
    func syntheticPatterns(_ c: Case) {
        let image = c.image()
        let ours = Image(Resampler().resample(image, to: c.width, height: c.height, region: c.region)).rgba8
        let reference = ReferenceResampler.bytes(image, width: c.width, height: c.height, region: c.region)
        #expect(TestPatterns.maxDifference(ours, reference) <= 1)
    }

    static func fixture(_ name: String) throws -> Image {
        try PNGDecoder.decode(path: Fixtures.path("photos/\(name)"))
    }

    static let photoCases: [(String, Int, Int, Rect?)] = [
        ("cat-rgba8.png", 64, 96, nil),
        ("cat-rgba8.png", 171, 256, nil),
        ("cat-rgba8.png", 100, 100, Rect(x: 0, y: 80, width: 320, height: 320)),
        ("cat-rgba8.png", 37, 23, nil),
        ("cat-rgb16.png", 85, 128, nil),
        ("cat-rgb16.png", 200, 300, nil),
    ]

    @Test(arguments: photoCases)
    func photos(_ name: String, _ width: Int, _ height: Int, _ region: Rect?) throws {
        let image = try Self.fixture(name)
        let ours = Image(Resampler().resample(image, to: width, height: height, region: region)).rgba8
        let reference = ReferenceResampler.bytes(image, width: width, height: height, region: region)
        #expect(TestPatterns.maxDifference(ours, reference) <= 1)
    }

    /// The same photos streamed from the decoder give the same bitmap as the in-memory path.
    @Test(arguments: ["cat-rgba8.png", "cat-rgb16.png"])
    func streamingMatchesInMemory(_ name: String) throws {
        let path = Fixtures.path("photos/\(name)")
        let image = try PNGDecoder.decode(path: path)
        var decoder = try PNGDecoder(path: path)
        let region = Rect(x: 3.5, y: 20.25, width: Double(image.width) - 10, height: Double(image.height) / 2)
        let streamed = try Resampler().resample(&decoder, to: 60, height: 45, region: region)
        #expect(streamed == Resampler().resample(image, to: 60, height: 45, region: region))
    }

    /// Other kernels and sRGB-light filtering follow the same convention.
    @Test(arguments: ResamplingKernel.allCases.filter { $0 != .nearest }, [Bitmap.LightEncoding.linear, .sRGB])
    func otherKernelsAndLight(_ kernel: ResamplingKernel, _ light: Bitmap.LightEncoding) {
        let image = TestPatterns.noise(47, 33, seed: 9)
        for (w, h) in [(13, 9), (90, 61), (47, 20)] {
            let ours = Image(Resampler(kernel: kernel, light: light).resample(image, to: w, height: h)).rgba8
            let reference = ReferenceResampler.bytes(image, width: w, height: h, kernel: kernel, light: light)
            #expect(TestPatterns.maxDifference(ours, reference) <= 1, "\(w)x\(h)")
        }
    }
}
