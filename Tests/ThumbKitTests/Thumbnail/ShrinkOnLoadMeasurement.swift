import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Measures how far shrink-on-load moves JPEG thumbnails from the exact result (`shrinkOnLoad`
/// off: full decode, then our resampler), for margins k = 2 (thumbgen's rule: the reduced image
/// keeps at least 2× the target on both axes), 3, 4 and 8: the largest difference on any channel,
/// the share of samples more than 1 off, and PSNR. It prints a table and checks only that the
/// numbers are sane: it is a measurement, not a test of a bar.
///
/// Slow (every photo is decoded at full size), so it runs only when `THUMBGEN_MEASURE` is set:
///
///     THUMBGEN_MEASURE=1 swift test -c release --filter ShrinkOnLoadMeasurement
///
/// Photos come from `THUMBGEN_PHOTOS_JPEG`, else ~/.cache/thumbgen-bench/corpus/photos-jpeg (the
/// bench corpus); without them only the synthetic JPEGs are measured.
///
/// A margin k is obtained without any knob in the library: the loader is handed k/2 times the
/// real shrink target (its rule keeps twice the target), and the thumbnail is then made from the
/// reduced image exactly as `Thumbnailer` does, with the plan of the full size.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["THUMBGEN_MEASURE"] != nil, "set THUMBGEN_MEASURE=1 to measure"))
struct ShrinkOnLoadMeasurement {
    static let margins = [2, 3, 4, 8]
    static let boxes = [256, 128]

    /// Pooled differences between reduced and exact thumbnails over one set of sources.
    struct Tally {
        var sources = 0, reduced = 0, samples = 0, overOne = 0, peak = 0
        var squares = 0.0
        var worstPSNR = Double.infinity
        var factors: [Int: Int] = [:]
        var lowestMargin = Double.infinity, highestMargin = 0.0

        mutating func add(reduced a: Image, exact b: Image, loaded: DecodedSource, target: (width: Int, height: Int)) {
            sources += 1
            guard loaded.reduction > 1 else { return }   // decoded whole: identical by construction
            reduced += 1
            factors[loaded.reduction, default: 0] += 1
            let margin = min(Double(loaded.image.width) / Double(target.width), Double(loaded.image.height) / Double(target.height))
            lowestMargin = min(lowestMargin, margin)
            highestMargin = max(highestMargin, margin)
            let x = a.rgba8, y = b.rgba8
            var sum = 0.0, count = 0
            for i in 0..<x.count where i % 4 != 3 {
                let d = abs(Int(x[i]) - Int(y[i]))
                sum += Double(d * d)
                count += 1
                if d > 1 { overOne += 1 }
                peak = max(peak, d)
            }
            squares += sum
            samples += count
            worstPSNR = min(worstPSNR, Self.psnr(sum / Double(count)))
        }

        static func psnr(_ mse: Double) -> Double { mse == 0 ? .infinity : 10 * log10(255 * 255 / mse) }

        func row(_ set: String, box: Int, margin: Int) -> String {
            let f = factors.keys.sorted().map { "1/\($0)×\(factors[$0]!)" }.joined(separator: " ")
            guard reduced > 0 else { return "| \(set) | \(box) | \(margin) | 0/\(sources) | – | – | – | – | – | – |" }
            return "| \(set) | \(box) | \(margin) | \(reduced)/\(sources) | \(f) | "
                + String(format: "%.2f–%.2f | %d | %.3f%% | %.1f | %.1f |", lowestMargin, highestMargin, peak,
                         100 * Double(overOne) / Double(samples), Self.psnr(squares / Double(samples)), worstPSNR)
        }
    }

    static func photos() -> [(String, [UInt8])] {
        let environment = ProcessInfo.processInfo.environment
        let folder = environment["THUMBGEN_PHOTOS_JPEG"]
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/thumbgen-bench/corpus/photos-jpeg"
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        let names = walker.compactMap { $0 as? String }.filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
        return names.sorted().compactMap { name in
            (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))).map { (name, [UInt8]($0)) }
        }
    }

    /// Photo-like pictures (the shrink-on-load tests' one, and the same at a size where even k = 8
    /// at box 256 can be reduced) and a worst case: independent noise in 2×2 cells.
    static func synthetic() -> [(String, [UInt8])] {
        var random = SeededGenerator(seed: 7)
        let cells = (0..<(2048 * 1536 * 3)).map { _ in UInt8(random.below(256)) }
        let noise = JPEGFixtures.rgb(width: 4096, height: 3072) { x, y in
            let i = ((y / 2) * 2048 + x / 2) * 3
            return (cells[i], cells[i + 1], cells[i + 2])
        }
        return [("photo-like 1600x1200", JPEGShrinkOnLoadTests.photo),
                ("photo-like 4096x3072", JPEGShrinkOnLoadTests.makePhoto(width: 4096, height: 3072)),
                ("noise 4096x3072", JPEGFixtures.encode(noise, width: 4096, height: 3072, quality: 90, subsampling: .s420))]
    }

    @Test func shrinkOnLoadAgainstTheFullDecode() throws {
        let photos = Self.photos()
        let sets: [(String, [(String, [UInt8])])] = (photos.isEmpty ? [] : [("photos-jpeg", photos)])
            + Self.synthetic().map { ($0.0, [$0]) }
        if photos.isEmpty { print("photos-jpeg not found: synthetic JPEGs only") }
        var tallies: [String: Tally] = [:]
        for (set, files) in sets {
            for (name, bytes) in files {
                let full = try DecodedSource.load(bytes)
                for box in Self.boxes {
                    let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: box, height: box)))
                    let exact = try thumbnailer.pixels(of: full.image)
                    // What --no-shrink-on-load produces.
                    #expect(try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: box, height: box), shrinkOnLoad: false))
                        .thumbnails(of: .bytes(bytes))[0].image == exact, "\(name)")
                    let fit = thumbnailer.plan(sourceWidth: full.plan.width, sourceHeight: full.plan.height, scale: 1)
                    let target = DecodePlan.shrinkTarget(fit, width: full.plan.width, height: full.plan.height)
                    for k in Self.margins {
                        let margin = (width: (target.width * k + 1) / 2, height: (target.height * k + 1) / 2)
                        let loaded = try DecodedSource.load(bytes, options: thumbnailer.options, shrinkTarget: margin)
                        let reduced = try loaded.thumbnail(thumbnailer)
                        if k == 2 {
                            let made = try thumbnailer.thumbnails(of: .bytes(bytes))[0].image
                            #expect(made == reduced, "k = 2 is the default, \(name)")
                        }
                        #expect(reduced.width == exact.width && reduced.height == exact.height)
                        tallies["\(set) \(box) \(k)", default: Tally()].add(reduced: reduced, exact: exact, loaded: loaded, target: target)
                    }
                }
            }
        }
        print("| source | box | k | reduced | factors | actual margin | max diff | samples >1 off | PSNR dB | worst PSNR dB |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for (set, _) in sets {
            for box in Self.boxes {
                for k in Self.margins { print(tallies["\(set) \(box) \(k)"]!.row(set, box: box, margin: k)) }
            }
        }
    }
}
