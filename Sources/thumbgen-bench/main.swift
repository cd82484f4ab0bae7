// thumbgen-bench: how long resampling takes next to decoding, single-threaded.
//
//     swift run -c release thumbgen-bench IMAGE.png [BOX] [RUNS]
//
// Times (1) decoding the whole PNG with libpng at its default settings (CBareDecode), (2) the same
// through PNGDecoder (to RGBA, Adler-32 skipped), (3) resampling the decoded image into a BOX×BOX
// box (inside fit, Lanczos-3, linear light), and (4) decoding and resampling streamed together
// (PNGDecoder rows straight into the resampler), each as the median of RUNS runs (default 7).
// Goal: resampling under 20% of libpng's decode for a 12-megapixel RGB photo.
import CBareDecode
import Foundation
import ThumbKit

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

let arguments = CommandLine.arguments

// `thumbgen-bench decode FILE...`: decode every file once at full size — PNGs with libpng at its
// default settings, JPEGs with libjpeg-turbo (no DCT scaling) — and nothing else: the floor
// `make bench` compares against.
if arguments.count >= 2 && arguments[1] == "decode" {
    var pixels = 0
    let elapsed = milliseconds {
        for path in arguments.dropFirst(2) {
            let decodedPixels = tg_bare_png_decode(path)
            if decodedPixels >= 0 {
                pixels += Int(decodedPixels)
            } else if let data = FileManager.default.contents(atPath: path),
                      let image = try? ImageSource.bytes([UInt8](data)).decodeAsStored(limits: DecodeLimits(maxPixels: 0)) {
                pixels += image.width * image.height
            }
        }
    }
    print(String(format: "decoded %d files, %.1f megapixels, in %.1f ms", arguments.count - 2, Double(pixels) / 1e6, elapsed))
    exit(0)
}

// `thumbgen-bench contrast [FILE...]`: how readable the default rating badge is, old look (no halo)
// against new (the halo). Each photo (the files given, then yellow and orange fields made here,
// where the orange stars are hardest to see) is made into a 256-pixel thumbnail; 0 and 4 stars
// are drawn in each corner; `BadgeContrast` gives the WCAG contrast ratio between the stars
// and the pixels right around them. Prints one line per photo (its lowest ratio of each look)
// and the lowest over all: the figures in docs/ratings-and-sheets.md.
if arguments.count >= 2 && arguments[1] == "contrast" {
    var photos: [(name: String, image: Image)] = []
    let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 256, height: 256), background: .white))
    for path in arguments.dropFirst(2) {
        guard let data = FileManager.default.contents(atPath: path),
              let thumbnail = try? thumbnailer.thumbnails(of: .bytes([UInt8](data))).first else {
            FileHandle.standardError.write(Data("thumbgen-bench: \(path): cannot be read\n".utf8))
            continue
        }
        photos.append(((path as NSString).lastPathComponent, thumbnail.image))
    }
    // Fields of one hue with fine texture (a seeded pattern), as sunflowers, dune grass, an
    // orange wall, sand and a white page: the colours the default orange is closest to.
    let fields: [(String, (Int, Int, Int))] = [("sunflower-field", (248, 196, 24)), ("dune-grass", (214, 190, 130)),
                                                ("orange-wall", (255, 149, 0)), ("sand", (236, 214, 170)), ("white", (255, 255, 255))]
    for (name, base) in fields {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var rgba: [UInt8] = []
        for _ in 0..<(256 * 192) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let jitter = Int((state >> 33) % 41) - 20
            rgba += [base.0, base.1, base.2].map { UInt8(max(0, min(255, $0 + jitter))) } + [255]
        }
        photos.append((name, Image(width: 256, height: 192, rgba8: rgba)))
    }
    var old = RatingBadgeStyle()
    old.halo = nil
    let new = RatingBadgeStyle()
    var lowest = (old: Double.infinity, new: Double.infinity)
    print("photo\told (no halo)\tnew (halo)")
    for photo in photos {
        var worst = (old: Double.infinity, new: Double.infinity)
        for corner in [Gravity.southEast, .southWest, .northEast, .northWest] {
            for stars in [0.0, 4.0] {
                var o = old, n = new
                o.corner = corner
                n.corner = corner
                worst.old = min(worst.old, (try? BadgeContrast.ratio(of: o, stars: stars, on: photo.image)) ?? .infinity)
                worst.new = min(worst.new, (try? BadgeContrast.ratio(of: n, stars: stars, on: photo.image)) ?? .infinity)
            }
        }
        print(String(format: "%@\t%.2f\t%.2f", photo.name, worst.old, worst.new))
        lowest = (min(lowest.old, worst.old), min(lowest.new, worst.new))
    }
    print(String(format: "lowest over %d photos\t%.2f\t%.2f", photos.count, lowest.old, lowest.new))
    exit(0)
}

guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: thumbgen-bench IMAGE.png [BOX] [RUNS] | thumbgen-bench decode FILE... | thumbgen-bench contrast [FILE...]\n".utf8))
    exit(64)
}
let path = arguments[1]
let box = arguments.count > 2 ? Int(arguments[2]) ?? 256 : 256
let runs = max(5, arguments.count > 3 ? Int(arguments[3]) ?? 7 : 7)

do {
    let image = try PNGDecoder.decode(path: path)
    let plan = FitPlan(sourceWidth: image.width, sourceHeight: image.height, boxWidth: box, boxHeight: box)
    let resampler = Resampler()
    var bareTimes: [Double] = []
    var decodeTimes: [Double] = []
    var resampleTimes: [Double] = []
    var streamTimes: [Double] = []
    var checksum: Float = 0
    for _ in 0..<runs {
        bareTimes.append(milliseconds { checksum += Float(tg_bare_png_decode(path)) })
        decodeTimes.append(try milliseconds { _ = try PNGDecoder.decode(path: path) })
        resampleTimes.append(milliseconds {
            let bitmap = resampler.resample(image, to: plan.width, height: plan.height, region: plan.region)
            checksum += bitmap.pixels[0]
        })
        streamTimes.append(try milliseconds {
            var decoder = try PNGDecoder(path: path)
            let bitmap = try resampler.resample(&decoder, to: plan.width, height: plan.height, region: plan.region)
            checksum += bitmap.pixels[0]
        })
    }
    let bare = median(bareTimes), decode = median(decodeTimes), resample = median(resampleTimes)
    let stream = median(streamTimes)
    print("image      \(image.width)x\(image.height), \(image.bitDepth)-bit -> \(plan.width)x\(plan.height) (\(resampler.kernel), linear)")
    print("runs       \(runs) (median)")
    // The minimum is printed too: on a shared machine it is the least disturbed run.
    print(String(format: "decode     %8.1f ms   (min %.1f; libpng, default settings)", bare, bareTimes.min()!))
    print(String(format: "PNGDecoder %8.1f ms   (min %.1f; to RGBA, Adler-32 skipped)", decode, decodeTimes.min()!))
    print(String(format: "resample   %8.1f ms   (min %.1f)", resample, resampleTimes.min()!))
    print(String(format: "ratio      %8.1f %% of decode (min %.1f %%)", 100 * resample / bare,
                 100 * resampleTimes.min()! / bareTimes.min()!))
    print(String(format: "streamed   %8.1f ms (decode rows + resample)", stream))
    if checksum.isNaN { print("unreachable") }
} catch {
    FileHandle.standardError.write(Data("thumbgen-bench: \(path): \(error)\n".utf8))
    exit(1)
}
