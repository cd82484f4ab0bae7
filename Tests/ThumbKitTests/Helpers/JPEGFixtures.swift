import Foundation
import CLCMSSystem
import CLibJPEG
@testable import ThumbKit

/// Makes the JPEG, EXIF and PNG-chunk test inputs in memory (no binary fixtures), and computes
/// reference colours with lcms2 directly.
enum JPEGFixtures {
    /// Chroma subsampling for `encode`.
    enum Subsampling: Int32 { case s444 = 0, s422 = 1, s420 = 2 }

    /// Encodes `pixels` (width × height × components bytes: gray, RGB or CMYK as stored) with
    /// libjpeg's compressor.
    static func encode(_ pixels: [UInt8], width: Int, height: Int, components: Int = 3, quality: Int = 95,
                       progressive: Bool = false, subsampling: Subsampling = .s444, ycck: Bool = false,
                       exif: [UInt8]? = nil, icc: [UInt8]? = nil) -> [UInt8] {
        precondition(pixels.count == width * height * components)
        let app1 = exif.map { Array("Exif".utf8) + [0, 0] + $0 } ?? []
        let profile = icc ?? []
        var buffer = tg_buffer()
        var message = [CChar](repeating: 0, count: Int(TG_MESSAGE_SIZE))
        let status = pixels.withUnsafeBufferPointer { p in
            app1.withUnsafeBufferPointer { a in
                profile.withUnsafeBufferPointer { i in
                    var params = tg_jpeg_encode_params(
                        width: UInt32(width), height: UInt32(height), components: Int32(components),
                        pixels: p.baseAddress, stride: width * components, quality: Int32(quality),
                        progressive: progressive ? 1 : 0, subsampling: subsampling.rawValue, ycck: ycck ? 1 : 0,
                        app1: a.count > 0 ? a.baseAddress : nil, app1_size: a.count,
                        icc: i.count > 0 ? i.baseAddress : nil, icc_size: i.count)
                    return message.withUnsafeMutableBufferPointer { tg_jpeg_encode(&params, &buffer, $0.baseAddress) }
                }
            }
        }
        defer { tg_buffer_free(&buffer) }
        precondition(status == TG_OK, String(cMessage: message))
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }

    /// RGB samples of a `width` × `height` image from a function of the pixel position.
    static func rgb(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                out += [c.0, c.1, c.2]
            }
        }
        return out
    }

    /// A TIFF structure with one IFD0 entry: Orientation (SHORT) = `value`, in either byte order.
    static func exif(orientation value: UInt16, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        let header: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 0x2A] : [0x49, 0x49, 0x2A, 0]
        // A second, unrelated entry first (ImageWidth, LONG) so the reader has to walk the IFD.
        return header + u32(8) + u16(2)
            + u16(0x0100) + u16(4) + u32(1) + u32(640)
            + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0)
            + u32(0)
    }

    /// PNG bytes with an extra chunk inserted right after IHDR.
    static func insertChunk(_ type: String, _ data: [UInt8], into png: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var chunk = [UInt8]()
        let length = UInt32(data.count)
        chunk += [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        chunk += typeBytes + data
        let crc = crc32(typeBytes + data)
        chunk += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        let afterIHDR = 8 + 8 + 13 + 4
        return Array(png[..<afterIHDR]) + chunk + Array(png[afterIHDR...])
    }

    /// CRC-32 (ISO 3309), as PNG chunks use.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Display P3: P3 primaries, D65 white, the sRGB tone curve.
    static func displayP3Profile() throws -> [UInt8] {
        try ColorManagement.makeRGBProfile(white: (0.3127, 0.3290),
                                           primaries: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060])
    }

    /// lcms2's own answer, in double precision and unclipped, for one RGB colour (0…1 per channel)
    /// from `profile` to its built-in sRGB profile, relative colorimetric with black-point
    /// compensation: the reference the pipeline's clipped integer output is compared with.
    static func lcmsReference(profile: [UInt8], rgb: [Double]) -> [Double] {
        // TYPE_RGB_DBL = FLOAT_SH(1) | COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(0): the
        // lcms2.h macro, spelled out because Swift does not import function-like macros.
        let typeRGBDouble: UInt32 = (1 << 22) | (4 << 16) | (3 << 3) | 0
        let input = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let output = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(input)
            cmsCloseProfile(output)
        }
        let transform = cmsCreateTransform(input, typeRGBDouble, output, typeRGBDouble,
                                           UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION))
        defer { cmsDeleteTransform(transform) }
        // lcms2's floating-point RGB is 0…1 in and out.
        var source = rgb
        var result = [Double](repeating: 0, count: 3)
        cmsDoTransform(transform, &source, &result, 1)
        return result
    }

    /// Clips to 0…1 and rounds to `levels` (255 or 65535).
    static func quantised(_ value: Double, levels: Double) -> Int {
        Int((min(max(value, 0), 1) * levels).rounded())
    }

    /// Peak signal-to-noise ratio over the colour channels of two same-sized 8-bit images, in dB.
    static func psnr(_ a: Image, _ b: Image) -> (psnr: Double, maxDifference: Int) {
        precondition(a.width == b.width && a.height == b.height)
        let x = a.rgba8, y = b.rgba8
        var sum = 0.0, count = 0, peak = 0
        for i in 0..<x.count where i % 4 != 3 {
            let d = Int(x[i]) - Int(y[i])
            sum += Double(d * d)
            count += 1
            peak = max(peak, abs(d))
        }
        let mse = sum / Double(count)
        return (mse == 0 ? .infinity : 10 * log10(255 * 255 / mse), peak)
    }

    /// The RGBA8 pixel at (x, y).
    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
        let samples = image.rgba8
        let i = (y * image.width + x) * 4
        return samples[i..<i + 4].map(Int.init)
    }
}
