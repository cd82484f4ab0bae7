/// Everything to make of each source: every width (or the box of `options.size`) at every scale in
/// every format, all from one decode. What `--widths`, `--scales` and a list of `--format`s ask for.
///
/// ```swift
/// var set = ThumbnailSet(options: ThumbnailOptions(), widths: [.pixels(320), .pixels(640), .source],
///                        formats: [.webp(WebPEncoder()), .jpeg(JPEGEncoder())])
/// let thumbnails = try Thumbnailer(options: set.options).thumbnails(of: .file("photo.jpg"), set: set)
/// ```
///
/// The decode is planned once, for the largest output (shrink-on-load included), and every output
/// is resampled from it with thumbgen's own filter; each size is resampled once whatever the number
/// of formats. Outputs at scale N are exactly N times the @1x output of the same box; where that
/// needs more pixels than the source has, the output is still made at that size, enlarged, with a
/// warning (`strictScales` makes it an error).
public struct ThumbnailSet: Sendable, Hashable {
    /// The look of every output; `options.size` is the box unless `widths` are given, and
    /// `options.format` is not used (`formats` is).
    public var options: ThumbnailOptions
    /// Widths at @1x (the box then has only a width, fitted `inside`); empty: the box of
    /// `options.size`. Widths above the source are collapsed as `ThumbnailSet.Width.resolve` says, unless
    /// `options.size.scale` allows enlarging.
    public var widths: [ThumbnailSet.Width]
    /// Scales, ascending, each once (default @1x).
    public var scales: [Scale]
    /// File formats, in the order given, each once (default PNG).
    public var formats: [OutputFormat]
    /// Refuse, instead of enlarging with a warning, a scale that needs more pixels than the source has.
    public var strictScales: Bool
    /// Placeholders to compute per source (`--placeholder`), each kind once, from the same decode
    /// as the outputs; the source is then decoded whole rather than streamed (BlurHash is defined
    /// over every decoded pixel).
    public var placeholders: [Placeholder] = []

    /// A set of the given outputs; `formats` nil: `options.format` alone.
    public init(options: ThumbnailOptions, widths: [ThumbnailSet.Width] = [], scales: [Scale] = [.one],
                formats: [OutputFormat]? = nil, strictScales: Bool = false) {
        self.options = options
        self.widths = widths
        self.scales = Array(Set(scales)).sorted()
        var seen: [OutputFormat] = []
        for format in formats ?? [options.format] where !seen.contains(format) { seen.append(format) }
        self.formats = seen
        // The first format stands in the options, so a set equals the one its description reads back as.
        self.options.format = seen.first ?? .png
        self.strictScales = strictScales
    }

    /// Every setting that affects any output, in a fixed order: `ThumbnailOptions`' description
    /// with the format fields of each format (one format: as `options.canonicalDescription` writes
    /// them; several: `formats=webp,jpeg` and each one's fields prefixed `webp:`, `jpeg:`), then
    /// `widths=`, `scales=` and `strict-scales=` where they are not the defaults. A manifest records
    /// it for every output of the set; outputs whose recorded description differs are rebuilt.
    public var canonicalDescription: String {
        var look = options
        look.format = .png
        var fields = [look.canonicalDescription]
        if formats.count == 1 {
            fields += formats[0].canonicalFields
        } else {
            fields.append("formats=" + formats.map(\.name).joined(separator: ","))
            for format in formats {
                fields += format.canonicalFields.filter { !$0.hasPrefix("format=") }.map { format.name + ":" + $0 }
            }
        }
        if !widths.isEmpty { fields.append("widths=" + widths.map(\.description).joined(separator: ",")) }
        if scales != [.one] { fields.append("scales=" + scales.map(\.description).joined(separator: ",")) }
        if strictScales { fields.append("strict-scales=on") }
        if !placeholders.isEmpty { fields.append("placeholders=" + placeholders.map(\.description).joined(separator: ",")) }
        return fields.joined(separator: ";")
    }

    /// Rebuilds a set from `canonicalDescription` (as a manifest records it), so `thumbgen check`
    /// can make an output again with the settings it was made with; limits take their defaults.
    package init(canonicalDescription text: String) throws(ThumbnailSettingsError) {
        let options = try ThumbnailOptions(canonicalDescription: text)
        var fields: [String: String] = [:]
        for item in text.split(separator: ";") {
            guard let equals = item.firstIndex(of: "=") else { throw ThumbnailSettingsError(text: text, field: String(item)) }
            fields[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        var formats = [options.format]
        if let names = fields["formats"] {
            formats = []
            for name in names.split(separator: ",").map(String.init) {
                var own: [String: String] = ["format": name]
                for (key, value) in fields where key.hasPrefix(name + ":") { own[String(key.dropFirst(name.count + 1))] = value }
                do { formats.append(try OutputFormat(canonicalFields: own)) } catch { throw ThumbnailSettingsError(text: text, field: name + ":" + error.field) }
            }
        }
        var widths: [ThumbnailSet.Width] = []
        if let list = fields["widths"] {
            for item in list.split(separator: ",") {
                guard let width = ThumbnailSet.Width(parsing: String(item)) else { throw ThumbnailSettingsError(text: text, field: "widths") }
                widths.append(width)
            }
        }
        var scales: [Scale] = [.one]
        if let list = fields["scales"] {
            scales = []
            for item in list.split(separator: ",") {
                guard let scale = Scale(parsing: String(item)) else { throw ThumbnailSettingsError(text: text, field: "scales") }
                scales.append(scale)
            }
        }
        self.init(options: options, widths: widths, scales: scales, formats: formats, strictScales: fields["strict-scales"] == "on")
        if let list = fields["placeholders"] {
            guard let placeholders = Placeholder.list(parsing: list) else { throw ThumbnailSettingsError(text: text, field: "placeholders") }
            self.placeholders = placeholders
        }
    }

    /// Whether outputs may be larger than the source (`--enlarge`).
    var enlarges: Bool { options.size.scale != .shrinkOnly }

    /// The boxes at @1x for a source of this upright size: the set's box, or one open-height box
    /// per resolved width.
    func boxes(sourceWidth: Int, sourceHeight: Int) -> [(width: Int?, size: ThumbnailSize)] {
        guard !widths.isEmpty else { return [(nil, options.size)] }
        return ThumbnailSet.Width.resolve(widths, sourceWidth: sourceWidth, enlarge: enlarges).map {
            ($0, ThumbnailSize(width: $0, height: ThumbnailSize.open, mode: .inside, scale: options.size.scale))
        }
    }

    /// Every output for a source of this upright size, with its plan: boxes ascending, then
    /// scales, then formats in the order given. Two widths that fit to the same size (a source so
    /// tall that its height limits both) are one output.
    func plannedVariants(sourceWidth: Int, sourceHeight: Int) -> [PlannedVariant] {
        var out: [PlannedVariant] = []
        var seenWidths: Set<Int> = []
        for box in boxes(sourceWidth: sourceWidth, sourceHeight: sourceHeight) {
            let base = FitPlan(sourceWidth: sourceWidth, sourceHeight: sourceHeight, size: box.size, gravity: options.gravity)
            // Named by the real width, so a box whose fit another already made is the same output.
            if box.width != nil && !seenWidths.insert(base.width).inserted { continue }
            for scale in scales {
                let plan = base.scaled(by: scale, gravity: options.gravity)
                for format in formats {
                    out.append(PlannedVariant(variant: ThumbnailVariant(width: box.width.map { _ in base.width }, scale: scale, format: format),
                                              plan: plan, base: base))
                }
            }
        }
        return out
    }

    /// The @1x widths and scales that would be enlarged beyond the source, as a warning; nil when none.
    func enlargementWarning(_ variants: [PlannedVariant], sourceWidth: Int, sourceHeight: Int) -> String? {
        guard !enlarges else { return nil }
        var parts: [String] = []
        for planned in variants where planned.variant.scale > .one && planned.plan.enlarges {
            let part = "@\(planned.variant.scale)x (\(planned.plan.width)x\(planned.plan.height))"
            if !parts.contains(part) { parts.append(part) }
        }
        guard !parts.isEmpty else { return nil }
        return "enlarged beyond the \(sourceWidth)x\(sourceHeight) source for " + parts.joined(separator: ", ")
    }
}

/// One output planned for a source of known size.
struct PlannedVariant: Sendable, Hashable {
    let variant: ThumbnailVariant
    /// Where the pixels go at the variant's scale.
    let plan: FitPlan
    /// The @1x plan of the same box (the badge's cell size and the picture at @1x come from it).
    let base: FitPlan
}
