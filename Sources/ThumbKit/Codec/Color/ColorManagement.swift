import CLibLCMS
import Synchronization

/// Converts decoded pixels to sRGB through Little CMS 2: relative colorimetric intent with
/// black-point compensation, output clipped to the sRGB gamut; 16-bit samples at 16-bit precision;
/// alpha untouched.
///
/// A profile that cannot be read, or does not fit the pixels (a CMYK profile on RGB samples, an
/// abstract or device-link profile), is never fatal: the pixels are left as they are (taken as
/// sRGB) and the reason comes back as a warning. Each call uses its own lcms2 context, so calls on
/// different threads do not share lcms2's error handler.
package enum ColorManagement {
    /// The image in sRGB, and a warning when the source's colours could not be applied.
    package static func convertToSRGB(_ image: Image, from source: ColorSource) -> (image: Image, warning: String?) {
        let converter: SRGBConverter
        switch SRGBConverter.make(from: source, sixteenBit: image.bitDepth > 8) {
        case .none: return (image, nil)
        case .failed(let warning): return (image, warning)
        case .converter(let made): converter = made
        }
        let pixels = image.width * image.height
        switch image.samples {
        case .eight(let samples):
            var out = [UInt8](repeating: 0, count: samples.count)
            converter.convert(samples, into: &out, pixels: pixels)
            return (Image(width: image.width, height: image.height, rgba8: out), nil)
        case .sixteen(let samples):
            var out = [UInt16](repeating: 0, count: samples.count)
            converter.convert(samples, into: &out, pixels: pixels)
            return (Image(width: image.width, height: image.height, rgba16: out), nil)
        }
    }

    /// The profile that takes `source`'s colours to sRGB (nil for sRGB itself), or the warning
    /// when `source` gives none that can be applied.
    static func profile(for source: ColorSource) -> (profile: [UInt8]?, warning: String?) {
        if source.isSRGB { return (nil, nil) }
        switch source {
        case .sRGB:
            return (nil, nil)
        case .iccProfile(let bytes):
            return (bytes, nil)
        case .gamma(let gamma, let chromaticities):
            guard gamma > 0, gamma.isFinite else { return (nil, "ignored gAMA \(gamma): not a positive number") }
            let xy = chromaticities ?? ColorSource.sRGBChromaticities
            do {
                // PNG's gAMA is the encoding exponent; the profile's curve decodes, so 1/gamma.
                return (try makeRGBProfile(white: (xy[0], xy[1]), primaries: Array(xy[2...7]), gamma: 1 / gamma), nil)
            } catch {
                return (nil, "ignored gAMA/cHRM: \(error.message)")
            }
        }
    }

    /// CMYK samples (4 bytes per pixel, inverted when `inverted`, as Adobe stores them) through a
    /// CMYK profile to sRGB RGBA8, or nil and the reason when the profile cannot be used.
    static func convertCMYK(_ samples: [UInt8], width: Int, height: Int, inverted: Bool,
                            profile: [UInt8]) -> (image: Image?, warning: String?) {
        var message = [CChar](repeating: 0, count: Int(TG_CMS_MESSAGE_SIZE))
        var out = [UInt8](repeating: 0, count: samples.count)
        let format = Int32(inverted ? TG_CMS_CMYK8_INVERTED : TG_CMS_CMYK8)
        let status = transform(profile, format, samples, &out, width * height, &message)
        guard status == Int32(TG_CMS_OK) else { return (nil, warning(status, message)) }
        return (Image(width: width, height: height, rgba8: out), nil)
    }

    /// CIE L*a*b* pixels (D50, 3 floats each: L* 0–100, a*, b* signed) as sRGB RGBA8, alpha
    /// 255, or nil when lcms2 cannot build the conversion.
    static func srgb(fromLab lab: [Float], pixels: Int) -> [UInt8]? {
        var message = [CChar](repeating: 0, count: Int(TG_CMS_MESSAGE_SIZE))
        var out = [UInt8](repeating: 0, count: pixels * 4)
        let status = tg_cms_lab_to_srgb(lab, &out, pixels, &message)
        return status == Int32(TG_CMS_OK) ? out : nil
    }

    /// CMYK ink samples (4 bytes a pixel) as RGBA by the naive rule every viewer without a profile
    /// uses: each ink removes its share of light. Inverted (Adobe) samples already are
    /// `1 - ink`, so R = C'·K'; plain ones are R = (1 - C)(1 - K). The same arithmetic as the
    /// decoder's own conversion in clibjpeg.c.
    static func naiveRGBA(fromCMYK samples: [UInt8], width: Int, height: Int, inverted: Bool) -> Image {
        var out = [UInt8](repeating: 255, count: samples.count)
        for i in stride(from: 0, to: samples.count, by: 4) {
            var c = UInt32(samples[i]), m = UInt32(samples[i + 1]), y = UInt32(samples[i + 2]), k = UInt32(samples[i + 3])
            if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
            out[i] = UInt8((c * k + 127) / 255)
            out[i + 1] = UInt8((m * k + 127) / 255)
            out[i + 2] = UInt8((y * k + 127) / 255)
        }
        return Image(width: width, height: height, rgba8: out)
    }

    /// lcms2's data colour space of CMYK profiles (`space(ofProfile:)`).
    static let cmykSpace = Int32(TG_CMS_SPACE_CMYK)

    /// The data colour space of an ICC profile, or nil when lcms2 cannot parse it.
    static func space(ofProfile profile: [UInt8]) -> Int32? {
        var space: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(TG_CMS_MESSAGE_SIZE))
        let status = message.withUnsafeMutableBufferPointer { text in
            tg_cms_profile_space(profile, profile.count, &space, text.baseAddress)
        }
        return status == Int32(TG_CMS_OK) ? space : nil
    }

    /// An RGB matrix/TRC ICC profile from CIE xy white point and primaries (red, green, blue as
    /// x, y pairs) and a tone curve: the sRGB curve when `gamma` is nil, else linear = encoded^gamma.
    package static func makeRGBProfile(white: (x: Double, y: Double), primaries: [Double],
                                      gamma: Double? = nil) throws(ColorProfileError) -> [UInt8] {
        precondition(primaries.count == 6, "three xy pairs")
        var buffer = tg_buffer()
        var message = [CChar](repeating: 0, count: Int(TG_CMS_MESSAGE_SIZE))
        let status = primaries.withUnsafeBufferPointer { xy in
            message.withUnsafeMutableBufferPointer { text in
                tg_cms_make_rgb_profile(white.x, white.y, xy.baseAddress, gamma == nil ? 1 : 0, gamma ?? 1,
                                        &buffer, text.baseAddress)
            }
        }
        defer { tg_buffer_free(&buffer) }
        guard status == Int32(TG_CMS_OK), let data = buffer.data else {
            throw ColorProfileError(reason: String(cMessage: message))
        }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }

    /// True when converting from `profile` to sRGB would move no colour by more than one 8-bit
    /// level (`sRGBEquivalenceTolerance`, probed by lcms2 over ramps and a grid): an sRGB profile
    /// under another name, which GIMP, Photoshop and cameras embed in most files. Such pixels are
    /// used as they are: the result is the same within that level, the image can stream, and the
    /// transform (a fifth of the time of a large photo) is skipped. Answers are cached per profile.
    package static func isEffectivelySRGB(_ profile: [UInt8]) -> Bool {
        if let known = equivalence.withLock({ $0[profile] }) { return known }
        var deviation: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(TG_CMS_MESSAGE_SIZE))
        let status = profile.withUnsafeBufferPointer { icc in
            tg_cms_srgb_deviation(icc.baseAddress, icc.count, &deviation, &message)
        }
        let equivalent = status == Int32(TG_CMS_OK) && deviation <= sRGBEquivalenceTolerance
        equivalence.withLock { cache in
            // A batch meets a handful of distinct profiles; the bound only guards against a
            // stream of unique ones.
            if cache.count >= 64 { cache.removeAll() }
            cache[profile] = equivalent
        }
        return equivalent
    }

    /// One 8-bit level, in the 16-bit units `tg_cms_srgb_deviation` reports.
    static let sRGBEquivalenceTolerance: Int32 = 257

    private static let equivalence = Mutex<[[UInt8]: Bool]>([:])

    private static func transform<Sample>(_ profile: [UInt8], _ format: Int32, _ samples: [Sample],
                                          _ out: inout [Sample], _ pixels: Int, _ message: inout [CChar]) -> Int32 {
        profile.withUnsafeBufferPointer { icc in
            samples.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    message.withUnsafeMutableBufferPointer { text in
                        tg_cms_to_srgb(icc.baseAddress, icc.count, format, src.baseAddress, dst.baseAddress,
                                       pixels, text.baseAddress)
                    }
                }
            }
        }
    }

    static func warning(_ status: Int32, _ message: [CChar]) -> String {
        let reason = String(cMessage: message)
        switch Int(status) {
        case Int(TG_CMS_ERR_PROFILE): return "ignored ICC profile (taken as sRGB): \(reason.lowercasedFirst)"
        case Int(TG_CMS_ERR_UNSUPPORTED): return "ignored ICC profile (taken as sRGB): \(reason)"
        default: return "colour conversion failed (taken as sRGB): \(reason.lowercasedFirst)"
        }
    }
}
