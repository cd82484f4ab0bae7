/// Everything that decides what a thumbnail looks like. Two equal option values always give
/// byte-identical outputs for the same source (for a given libdeflate).
public struct ThumbnailOptions: Sendable, Hashable {
    /// The box at @1x, how the image fits it, and whether it may be enlarged (default 128, inside,
    /// shrink only).
    public var size: ThumbnailSize
    /// Where `cover` crops from and where `contain` places the image.
    public var gravity: Gravity
    /// The resampling filter (default Lanczos-3).
    public var kernel: ResamplingKernel
    /// `.linear` (default) filters and composites in linear light; `.sRGB` on the encoded values.
    public var light: Bitmap.LightEncoding
    /// Radius of the rounded corners at @1x in output pixels (0 = square corners); outside them the
    /// thumbnail is transparent (or the background colour).
    public var cornerRadius: Double
    /// When set, the thumbnail is composited over this colour and comes out opaque; it is also the
    /// colour of `contain`'s margins (transparent when nil).
    public var background: Color?
    /// PNG colour type policy (PNG output only).
    public var colorType: PNGEncoder.ColorTypeChoice
    /// The file format and its encoder's settings (default PNG). JPEG output is flattened onto
    /// `background`, white when it is nil.
    public var format: OutputFormat = .png
    /// When set, the photo's star rating is drawn onto the picture as a badge (`--rating-badge`);
    /// photos without a rating, and rejected ones, get none.
    public var ratingBadge: RatingBadgeStyle?
    /// Decoder limits.
    public var limits: DecodeLimits
    /// Turns the image upright by its EXIF orientation (JPEG APP1, PNG `eXIf`) before fitting it
    /// (`--no-rotate` turns this off); default true.
    public var autoRotate: Bool
    /// Leaves the pixels in the source's colours and writes its ICC profile into the thumbnail,
    /// instead of converting to sRGB and marking the output sRGB; default false.
    public var keepProfile: Bool
    /// Decodes a JPEG reduced by libjpeg's DCT scaling (1/2, 1/4 or 1/8, see `JPEGDecoder.reduction`)
    /// when it is large enough; default true. The reduced decode is a block-wise box prefilter on
    /// sRGB-encoded values ahead of our resampler, so fine detail comes out up to ~60 levels away
    /// from a full decode (docs/input.md, JPEG); false (`--no-shrink-on-load`) decodes at full size:
    /// exact (the ±1 bar), about twice as slow on photos.
    public var shrinkOnLoad: Bool
    /// Thumbnails a JPEG that ends early from the rows it has (libjpeg fills the rest with grey)
    /// instead of failing (`--allow-partial`); default false. Not a rendering setting: a complete
    /// file renders the same either way, so it is left out of `canonicalDescription`.
    public var allowPartial: Bool = false

    /// Options with the command line's defaults unless given.
    public init(size: ThumbnailSize = ThumbnailSize(width: 128, height: 128), gravity: Gravity = .centre,
                kernel: ResamplingKernel = .lanczos3, light: Bitmap.LightEncoding = .linear, cornerRadius: Double = 0,
                background: Color? = nil, colorType: PNGEncoder.ColorTypeChoice = .automatic,
                format: OutputFormat = .png, ratingBadge: RatingBadgeStyle? = nil,
                limits: DecodeLimits = .default, autoRotate: Bool = true, keepProfile: Bool = false,
                shrinkOnLoad: Bool = true, allowPartial: Bool = false) {
        self.size = size
        self.gravity = gravity
        self.kernel = kernel
        self.light = light
        self.cornerRadius = cornerRadius
        self.background = background
        self.colorType = colorType
        self.format = format
        self.ratingBadge = ratingBadge
        self.limits = limits
        self.autoRotate = autoRotate
        self.keepProfile = keepProfile
        self.shrinkOnLoad = shrinkOnLoad
        self.allowPartial = allowPartial
    }

    /// Every setting that affects output pixels or bytes, in a fixed order: what a manifest's
    /// settings digest is computed from. Limits are left out (they decide whether, not how).
    public var canonicalDescription: String {
        [
            "size=\(size.sides)",
            "fit=\(size.mode.rawValue)",
            "scale=\(Self.scaleNames[size.scale]!)",
            "gravity=\(gravity.rawValue)",
            "kernel=\(kernel.rawValue)",
            "light=\(light == .linear ? "linear" : "srgb")",
            "radius=\(cornerRadius)",
            "background=\(background.map(\.description) ?? "none")",
            "color-type=\(colorType.rawValue)",
            "rotate=\(autoRotate ? "auto" : "off")",
            "profile=\(keepProfile ? "keep" : "srgb")",
            "shrink-on-load=\(shrinkOnLoad ? "on" : "off")",
            "libraries=\(CodecVersions.field)",
        ].joined(separator: ";") + (format.canonicalFields + (ratingBadge?.canonicalFields ?? [])).map { ";" + $0 }.joined()
    }

    /// True when two sets of options decode a source the same way (rotation, colour handling,
    /// shrink-on-load, limits), so their thumbnails can come from one decode.
    func decodesAlike(_ other: ThumbnailOptions) -> Bool {
        autoRotate == other.autoRotate && keepProfile == other.keepProfile && shrinkOnLoad == other.shrinkOnLoad
            && allowPartial == other.allowPartial && limits == other.limits
    }

    /// SHA-256 of `canonicalDescription`.
    public var digest: String { SHA256.hex(Array(canonicalDescription.utf8)) }

    private static let scaleNames: [ThumbnailSize.ScaleRule: String] = [.shrinkOnly: "shrink", .enlargeOnly: "enlarge", .any: "any"]

    /// Rebuilds options from `canonicalDescription` (as a manifest records it), so `thumbgen check`
    /// can regenerate an output with the settings it was made with. The `libraries` entry (and the
    /// `codec`, `jpeg` and `webp` entries that named library versions before it) are not needed to render and are ignored; limits take their
    /// defaults. A description without `shrink-on-load` was written before the option existed,
    /// when JPEGs were always reduced on load, so it reads as on; one without `format` is PNG, one
    /// without `badge` draws no rating badge.
    package init(canonicalDescription text: String) throws(ThumbnailSettingsError) {
        var fields: [String: String] = [:]
        for item in text.split(separator: ";") {
            guard let equals = item.firstIndex(of: "=") else { throw ThumbnailSettingsError(text: text, field: String(item)) }
            fields[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        func field<T>(_ name: String, _ convert: (String) -> T?) throws(ThumbnailSettingsError) -> T {
            guard let value = fields[name], let converted = convert(value) else {
                throw ThumbnailSettingsError(text: text, field: name)
            }
            return converted
        }
        let sides = try field("size") { value -> (Int, Int)? in
            // `640x` and `x480` leave a side open.
            let parts = value.split(separator: "x", omittingEmptySubsequences: false).map { $0.isEmpty ? ThumbnailSize.open : Int($0) }
            guard parts.count == 2, let width = parts[0], let height = parts[1] else { return nil }
            let size = ThumbnailSize(width: width, height: height)
            return size.isValid ? (width, height) : nil
        }
        let mode = try field("fit") { FitMode(rawValue: $0) }
        let scale = try field("scale") { name in Self.scaleNames.first { $0.value == name }?.key }
        self.init(size: ThumbnailSize(width: sides.0, height: sides.1, mode: mode, scale: scale))
        gravity = try field("gravity") { Gravity(rawValue: $0) }
        kernel = try field("kernel") { try? ResamplingKernel(name: $0) }
        light = try field("light") { ["linear": Bitmap.LightEncoding.linear, "srgb": .sRGB][$0] }
        cornerRadius = try field("radius") { Double($0).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        let backgroundText: String = try field("background") { $0 }
        if backgroundText != "none" {
            guard let color = try? Color(hex: backgroundText) else { throw ThumbnailSettingsError(text: text, field: "background") }
            background = color
        }
        colorType = try field("color-type") { PNGEncoder.ColorTypeChoice(rawValue: $0) }
        autoRotate = try field("rotate") { ["auto": true, "off": false][$0] }
        keepProfile = try field("profile") { ["keep": true, "srgb": false][$0] }
        if fields["shrink-on-load"] != nil {
            shrinkOnLoad = try field("shrink-on-load") { ["on": true, "off": false][$0] }
        }
        do { format = try OutputFormat(canonicalFields: fields) } catch { throw ThumbnailSettingsError(text: text, field: error.field) }
        do { ratingBadge = try RatingBadgeStyle(canonicalFields: fields) } catch { throw ThumbnailSettingsError(text: text, field: error.field) }
    }
}

/// A recorded settings description that thumbgen cannot read back.
package struct ThumbnailSettingsError: ThumbKitError, Equatable {
    package let text: String
    /// The field that is missing or malformed.
    package let field: String
    package var message: String { "unreadable settings '\(text)': bad or missing '\(field)'" }
}
