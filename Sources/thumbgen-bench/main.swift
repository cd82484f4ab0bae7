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

guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: thumbgen-bench IMAGE.png [BOX] [RUNS] | thumbgen-bench decode FILE...\n".utf8))
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
