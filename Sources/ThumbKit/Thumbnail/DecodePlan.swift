/// How one source is decoded for a thumbnail, decided from its header and the options before any
/// pixel is read: the reduction on load (JPEG's DCT scaling), the orientation and colour
/// conversion to apply, the profile to keep, and whether rows are streamed or the image is decoded
/// whole. The one place each of these is decided.
///
/// **Shrink-on-load.** A decoder that can reduce while decoding (1/2, 1/4, 1/8) reduces as far as
/// still leaves at least twice the size the whole image will be resampled to for the largest output
/// (of every width, scale and format asked for), on both axes, so the resampler (not the decoder) does the final filtering. A decoder that can
/// scale to any size (libwebp) is asked for exactly twice that size, when that at least halves
/// both axes (a smaller step would save little and only blur). Fit plans are made from the full
/// upright size, so output sizes never depend on the reduction.
///
/// **Streaming.** An image that needs no rotation and no CMYK conversion, whose layout the decoder
/// streams (`ImageDecoder.streams`: not interlaced, for most), and whose outputs are all resampled
/// (none is the image's own size) with one filter streams: rows go from the decoder, converted to
/// sRGB one by one when the source has other colours (`SRGBRows`), into every size's resampler at
/// once, and the decoded image is never held. Everything else is decoded whole, once, and every
/// output is resampled from it.
struct DecodePlan {
    /// What colour work the decoded pixels need.
    enum ColourStep: Equatable {
        /// None: the samples are sRGB (or the profile is kept).
        case none
        /// Convert RGB or gray samples from the source's colours to sRGB.
        case toSRGB(ColorSource)
        /// Decode a CMYK image's ink samples and convert them through this CMYK profile.
        case cmykProfile([UInt8])

        /// Whether rows can be converted as they stream: sRGB conversion is pixel by pixel, the
        /// same on rows as on the whole image; ink samples are only handed out whole.
        var streams: Bool {
            if case .cmykProfile = self { return false }
            return true
        }
    }

    let header: ImageHeader
    /// The orientation applied after decoding (`.topLeft`: none).
    let orientation: Orientation
    /// Upright width of the full image, as fit plans see it (stored width when not rotating).
    let width: Int
    /// Upright height of the full image.
    let height: Int
    let colour: ColourStep
    /// The source's ICC profile, written into the output unapplied (`keepProfile`).
    let keptProfile: [UInt8]?
    /// What the decoder is asked for.
    var request: DecodeRequest
    /// Problems found in planning (a profile that does not fit the image).
    let warnings: [String]

    var streams: Bool { request.streams }
    var reduction: Int { request.reduction }
    /// The size the decoder is asked to scale the stored image to, if any.
    var scaledSize: DecodeRequest.Size? { request.scaledSize }

    /// The size the decoder will hand out, as stored (not upright): the image reduced on load
    /// (sizes round up), scaled, or at full size.
    var decodedStoredSize: DecodeRequest.Size {
        if let scaledSize { return scaledSize }
        let f = reduction
        return DecodeRequest.Size(width: (header.storedWidth + f - 1) / f, height: (header.storedHeight + f - 1) / f)
    }

    /// Plans decoding for every thumbnail of one source: `fits` gives the fit plans of all of
    /// them (every variant at every scale) for a full upright `width` × `height` source. The
    /// reduction on load keeps enough for the most demanding of them; several plans stream only
    /// when `oneFilter` says they are all resampled with one kernel in one light.
    init(header: ImageHeader, decoder: any ImageDecoder.Type, options: ThumbnailOptions, oneFilter: Bool = false,
         fits: (_ width: Int, _ height: Int) -> [FitPlan]) {
        let reductions = decoder.reductions
        self.header = header
        orientation = options.autoRotate ? header.orientation : .topLeft
        let upright = orientation.uprightSize(width: header.storedWidth, height: header.storedHeight)
        (width, height) = upright

        var warnings: [String] = []
        var colour = ColourStep.none
        let cmykImage: Bool
        switch header.details {
        case .jpeg(let space, _, _): cmykImage = space.isCMYK
        case .tiff(let photometric, _, _): cmykImage = photometric == "cmyk"
        default: cmykImage = false
        }
        if options.keepProfile {
            // A CMYK profile cannot travel on the RGB output.
            if case .iccProfile(let profile) = header.colorSource, !cmykImage { keptProfile = profile } else { keptProfile = nil }
        } else {
            keptProfile = nil
            switch header.colorSource {
            case .iccProfile(let profile) where cmykImage:
                if ColorManagement.space(ofProfile: profile) == ColorManagement.cmykSpace {
                    colour = .cmykProfile(profile)
                } else {
                    warnings.append("ignored ICC profile (taken as sRGB): not a CMYK profile on a CMYK image")
                }
            case let source where !source.isSRGB:
                colour = .toSRGB(source)
            default:
                break
            }
        }
        self.colour = colour
        self.warnings = warnings

        var request = DecodeRequest(allowPartial: options.allowPartial)
        request.rawCMYK = colour != .none && cmykImage
        let plans = fits(upright.width, upright.height)
        if options.shrinkOnLoad, !plans.isEmpty {
            // The target is upright, the largest any output needs on each axis; the decoder
            // reduces stored axes.
            let targets = plans.map { DecodePlan.shrinkTarget($0, width: upright.width, height: upright.height) }
            let target = (width: targets.map(\.width).max()!, height: targets.map(\.height).max()!)
            let stored = orientation.swapsAxes ? (width: target.height, height: target.width) : target
            if decoder.scalesToAnySize(header) {
                request.scaledSize = DecodePlan.scaledSize(width: header.storedWidth, height: header.storedHeight, target: stored)
            } else {
                request.reduction = DecodePlan.reduction(width: header.storedWidth, height: header.storedHeight,
                                                         target: stored, available: reductions)
            }
        }
        request.streams = decoder.streams(header) && (plans.count == 1 || (oneFilter && !plans.isEmpty)) && orientation == .topLeft
            && colour.streams && !plans.contains { $0.isIdentity(sourceWidth: upright.width, sourceHeight: upright.height) }
        self.request = request
    }

    /// Plans decoding for one set's thumbnails at whole `scales`; `fit` gives the fit plan of a
    /// full upright `width` × `height` source at a scale.
    init(header: ImageHeader, decoder: any ImageDecoder.Type, options: ThumbnailOptions, scales: [Int],
         fit: (_ width: Int, _ height: Int, _ scale: Int) -> FitPlan) {
        self.init(header: header, decoder: decoder, options: options, oneFilter: true) { width, height in
            var plans: [FitPlan] = []
            for scale in scales where !plans.contains(fit(width, height, scale)) { plans.append(fit(width, height, scale)) }
            return plans
        }
    }

    /// The size the whole upright source would be resampled to under `plan`: what a reduction on
    /// load must keep at least twice of. Rounded up, so the reduction never goes one step too far.
    static func shrinkTarget(_ plan: FitPlan, width: Int, height: Int) -> (width: Int, height: Int) {
        let w = (Double(width) * Double(plan.width) / plan.region.width).rounded(.up)
        let h = (Double(height) * Double(plan.height) / plan.region.height).rounded(.up)
        return (Int(w), Int(h))
    }

    /// The largest of `available` that still leaves at least twice `target` on both axes of a
    /// `width` × `height` image. Reduced sizes round up, as libjpeg computes them.
    static func reduction(width: Int, height: Int, target: (width: Int, height: Int), available: [Int]) -> Int {
        var best = 1
        for factor in available where factor > 1 {
            let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
            if w >= 2 * target.width && h >= 2 * target.height { best = max(best, factor) }
        }
        return best
    }

    /// For a decoder that scales to any size: twice `target` on both axes, if that at least halves
    /// both axes of the `width` × `height` image; else nil (decode at full size).
    static func scaledSize(width: Int, height: Int, target: (width: Int, height: Int)) -> DecodeRequest.Size? {
        let size = DecodeRequest.Size(width: max(1, 2 * target.width), height: max(1, 2 * target.height))
        return 2 * size.width <= width && 2 * size.height <= height ? size : nil
    }

    /// The part of the decoded (upright, possibly reduced) image that a fit plan's region of the
    /// full upright image corresponds to.
    ///
    /// A reduced pixel `i` covers full pixels `[f·i, f·i + f)` of the stored image, and a last,
    /// partial block still makes a whole pixel (sizes round up): the stored image's content ends
    /// inside its last reduced pixel, at the right and at the bottom *as stored*. So a stored
    /// coordinate maps to itself divided by `f`; on an upright axis that runs against the stored
    /// one (a flip, or a rotation's reversed axis) the content ends at the far edge of the decoded
    /// image instead, and starts that partial block's remainder in from the near one.
    ///
    /// A scaled image (libwebp's rescaler) is the whole image mapped exactly onto the decoded size,
    /// so a coordinate maps by the ratio of the sizes on its axis, whatever the orientation. That
    /// holds too when the decoder declined to scale (the ratio is then 1).
    func region(for plan: FitPlan, decodedWidth: Int, decodedHeight: Int) -> Rect {
        if scaledSize != nil {
            let sx = Double(decodedWidth) / Double(width), sy = Double(decodedHeight) / Double(height)
            let x = min(plan.region.x * sx, Double(decodedWidth) - 1)
            let y = min(plan.region.y * sy, Double(decodedHeight) - 1)
            return Rect(x: x, y: y, width: min(plan.region.width * sx, Double(decodedWidth) - x),
                        height: min(plan.region.height * sy, Double(decodedHeight) - y))
        }
        guard reduction > 1 else { return plan.region }
        let f = Double(reduction)
        let reversed = orientation.reversesUprightAxes
        let offsetX = reversed.x ? Double(decodedWidth) - Double(width) / f : 0
        let offsetY = reversed.y ? Double(decodedHeight) - Double(height) / f : 0
        let x = min(plan.region.x / f + offsetX, Double(decodedWidth) - 1)
        let y = min(plan.region.y / f + offsetY, Double(decodedHeight) - 1)
        return Rect(x: x, y: y, width: min(plan.region.width / f, Double(decodedWidth) - x),
                    height: min(plan.region.height / f, Double(decodedHeight) - y))
    }

    /// Decodes the whole image as planned: reduced, in sRGB (unless the profile is kept), upright.
    func decode(_ decoder: any ImageDecoder) throws(DecodeError) -> (image: Image, warnings: [String]) {
        var whole = request
        whole.streams = false
        try decoder.start(whole)
        var image: Image
        var colourWarnings = warnings
        switch try decoder.decodeImage() {
        case .rgba(let decoded):
            image = decoded
            if case .toSRGB(let source) = colour {
                let converted = ColorManagement.convertToSRGB(decoded, from: source)
                image = converted.image
                if let warning = converted.warning { colourWarnings.append(warning) }
            }
        case .cmyk(let width, let height, let samples, let inverted, let alpha):
            guard case .cmykProfile(let profile) = colour else { preconditionFailure("ink samples without a CMYK profile") }
            let converted = ColorManagement.convertCMYK(samples, width: width, height: height, inverted: inverted, profile: profile)
            if let result = converted.image {
                image = result
            } else {
                // lcms2 refused the profile after all: the naive conversion every viewer uses.
                colourWarnings.append(converted.warning ?? "ignored ICC profile")
                image = ColorManagement.naiveRGBA(fromCMYK: samples, width: width, height: height, inverted: inverted)
            }
            if let alpha {
                // The profile converts inks; coverage is carried over unchanged (straight alpha).
                var rgba = image.rgba8
                for pixel in 0..<alpha.count { rgba[pixel * 4 + 3] = alpha[pixel] }
                image = Image(width: width, height: height, rgba8: rgba)
            }
        }
        image = orientation.apply(to: image)
        return (image, decoder.warnings + colourWarnings)
    }
}
