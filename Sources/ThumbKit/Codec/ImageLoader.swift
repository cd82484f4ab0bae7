import CLibLCMS

/// Turns a file's bytes into an upright sRGB `Image`: recognises PNG or JPEG by content, decodes
/// (JPEG reduced on load when a target size is given), converts embedded colour information to
/// sRGB (`ColorManagement`) and applies the EXIF orientation (`Orientation`), in that order.
///
/// Metadata problems (an unreadable profile, a malformed EXIF block) never fail a load: they are
/// warnings, and the pixels are taken as sRGB / upright as stored.
public struct ImageLoader: Sendable {
    /// Decoder limits, checked from the header before decoding.
    public var limits: DecodeLimits
    /// Applies the EXIF orientation (JPEG APP1, PNG `eXIf`); default true.
    public var autoRotate: Bool
    /// Converts ICC / gAMA / cHRM colours to sRGB; default true. When false the pixels keep the
    /// source's colours and `LoadedImage.keptProfile` carries its ICC profile.
    public var convertsToSRGB: Bool
    /// Accepts a JPEG that ends early, the missing part filled in by libjpeg (with a warning)
    /// instead of failing with `JPEGError.truncated`; default false.
    public var allowPartial: Bool

    /// A loader with the given settings.
    public init(limits: DecodeLimits = .default, autoRotate: Bool = true, convertsToSRGB: Bool = true,
                allowPartial: Bool = false) {
        self.limits = limits
        self.autoRotate = autoRotate
        self.convertsToSRGB = convertsToSRGB
        self.allowPartial = allowPartial
    }

    /// The supported format the bytes are in, if any.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        ImageFormat.detect(bytes.prefix(ImageFormat.detectionLength))
    }

    /// Loads an image. `shrinkTarget` is the upright size the whole image will be resampled to;
    /// a JPEG is then reduced on load as far as keeps at least twice that size on both axes.
    public func load(_ bytes: [UInt8], shrinkTarget: (width: Int, height: Int)? = nil) throws(ImageLoadError) -> LoadedImage {
        try load(bytes, shrinkTargetForSize: { _, _ in shrinkTarget })
    }

    /// Loads an image, asking `shrinkTargetForSize` (given the full upright width and height, once
    /// the header is read) for the size the whole image will be resampled to.
    public func load(_ bytes: [UInt8],
                     shrinkTargetForSize: (Int, Int) -> (width: Int, height: Int)?) throws(ImageLoadError) -> LoadedImage {
        guard let format = ImageLoader.format(of: bytes) else { throw .unrecognised }
        switch format {
        case .png:
            let decoder: PNGDecoder
            do { decoder = try PNGDecoder(bytes: bytes, limits: limits) } catch { throw .png(error) }
            return try load(decoder)
        case .jpeg:
            do { return try loadJPEG(bytes, shrinkTargetForSize: shrinkTargetForSize) } catch { throw .jpeg(error) }
        }
    }

    /// Decodes an opened PNG whole and makes it upright and sRGB.
    func load(_ decoder: PNGDecoder) throws(ImageLoadError) -> LoadedImage {
        let decoded: Image
        do { decoded = try decoder.decodeImage() } catch { throw .png(error) }
        var warnings: [String] = []
        var image = decoded
        var kept: [UInt8]?
        let source = decoder.colorSource
        if convertsToSRGB {
            let converted = ColorManagement.convertToSRGB(decoded, from: source)
            image = converted.image
            if let warning = converted.warning { warnings.append(warning) }
        } else if case .iccProfile(let profile) = source {
            kept = profile
        }
        let orientation = autoRotate ? decoder.exif.flatMap { ExifReader(tiff: $0)?.orientation } : nil
        if let orientation { image = orientation.apply(to: image) }
        return LoadedImage(image: image, format: .png, fullWidth: image.width, fullHeight: image.height, reduction: 1,
                           orientation: orientation, keptProfile: kept, warnings: warnings)
    }

    /// True when a PNG opened by `decoder` would come out of `load` exactly as decoded: no colour
    /// conversion and no orientation to apply (so it can be streamed instead).
    func needsNoTransform(_ decoder: PNGDecoder) -> Bool {
        let colourFree = !convertsToSRGB || decoder.colorSource.isSRGB
        let upright = !autoRotate || (decoder.exif.flatMap { ExifReader(tiff: $0)?.orientation } ?? .topLeft) == .topLeft
        return colourFree && upright
    }

    private func loadJPEG(_ bytes: [UInt8],
                          shrinkTargetForSize: (Int, Int) -> (width: Int, height: Int)?) throws(JPEGError) -> LoadedImage {
        let decoder = try JPEGDecoder(bytes: bytes, limits: limits)
        let info = decoder.info
        let orientation = autoRotate ? decoder.exif.flatMap { ExifReader(tiff: $0)?.orientation } : nil
        let full = (orientation ?? .topLeft).uprightSize(width: info.width, height: info.height)
        let shrinkTarget = shrinkTargetForSize(full.width, full.height)
        // The target is upright; the decoder reduces stored axes.
        let storedTarget = shrinkTarget.map { target in
            orientation?.swapsAxes == true ? (width: target.height, height: target.width) : target
        }
        let reduction = storedTarget.map { JPEGDecoder.reduction(width: info.width, height: info.height, target: $0) } ?? 1
        let profile = decoder.iccProfile
        var warnings: [String] = []
        var image: Image
        var decoderWarnings: [String]
        if convertsToSRGB, info.isCMYK, let profile, ColorManagement.space(ofProfile: profile) == Int32(TG_CMS_SPACE_CMYK) {
            let raw = try decoder.decodeSamples(reduction: reduction, rawCMYK: true, allowPartial: allowPartial)
            decoderWarnings = decoder.warnings
            let converted = ColorManagement.convertCMYK(raw.samples, width: raw.width, height: raw.height,
                                                        inverted: info.hasAdobeMarker, profile: profile)
            if let converted = converted.image {
                image = converted
            } else {
                // lcms2 refused the profile after all: decode again with the naive conversion.
                warnings.append(converted.warning ?? "ignored ICC profile")
                let fallback = try JPEGDecoder(bytes: bytes, limits: limits)
                image = ImageLoader.rgba(try fallback.decodeSamples(reduction: reduction, rawCMYK: false, allowPartial: allowPartial))
            }
        } else {
            image = ImageLoader.rgba(try decoder.decodeSamples(reduction: reduction, rawCMYK: false, allowPartial: allowPartial))
            decoderWarnings = decoder.warnings
            if convertsToSRGB, let profile {
                if info.isCMYK {
                    warnings.append("ignored ICC profile (taken as sRGB): not a CMYK profile on a CMYK image")
                } else {
                    let converted = ColorManagement.convertToSRGB(image, from: .iccProfile(profile))
                    image = converted.image
                    if let warning = converted.warning { warnings.append(warning) }
                }
            }
        }
        if let orientation { image = orientation.apply(to: image) }
        return LoadedImage(image: image, format: .jpeg, fullWidth: full.width, fullHeight: full.height,
                           reduction: reduction, orientation: orientation,
                           keptProfile: convertsToSRGB || info.isCMYK ? nil : profile, warnings: decoderWarnings + warnings)
    }

    private static func rgba(_ decoded: (width: Int, height: Int, samples: [UInt8])) -> Image {
        Image(width: decoded.width, height: decoded.height, rgba8: decoded.samples)
    }
}
