/// Draws the pictures of one icon set: decodes each source once, keeps each picture once drawn.
/// One per `IconRenderer.render` call, on one thread.
final class IconPainter {
    let set: IconSet
    let master: ImageSource
    /// Problems with the sources that did not stop them, each once, in order.
    private(set) var warnings: [String] = []
    private var arts: [String: IconArt] = [:]
    private var pictures: [IconPicture: Image] = [:]

    init(set: IconSet, master: ImageSource) {
        self.set = set
        self.master = master
    }

    /// The shadow of macOS 11's icon grid at 1024 px: black at 30% (77/255), 10 px down, blurred
    /// with σ = 5 px (a CSS blur radius of 10 px), scaled with the icon.
    static let macShadowAlpha: UInt8 = 77
    static let macShadowOffset = 10.0
    static let macShadowSigma = 5.0
    /// The grid's body at 1024 px: 824 px square, 100 px in from each side, corner radius 185.4.
    static let macBodyInset = 100.0
    static let macBodySide = 824.0
    static let macBodyRadius = 185.4

    /// The picture, drawn now or earlier.
    func picture(_ picture: IconPicture) throws(IconError) -> Image {
        if let made = pictures[picture] { return made }
        let image = try draw(picture)
        pictures[picture] = image
        return image
    }

    private var background: Color { self.set.iconBackground ?? .white }

    /// Pixels of padding on each side of a content area `side` pixels across.
    private func inset(_ side: Int) -> Int { Int((Double(side) * set.padding / 100).rounded()) }
    /// A round content area's radius less the padding.
    private func padded(_ radius: Double) -> Double { radius * (1 - 2 * set.padding / 100) }

    private func draw(_ picture: IconPicture) throws(IconError) -> Image {
        let s = picture.size
        var canvas = Canvas(width: s, height: s)
        switch picture.look {
        case .art(let role, let opaque):
            let art = try self.art(role, size: s)
            let i = inset(s)
            art.draw(on: &canvas, x: i, y: i, side: s - 2 * i)
            if opaque { canvas.flatten(onto: background) }
        case .macGrid:
            let k = Double(s) / 1024
            let body = Path.continuousRoundedRectangle(x: Self.macBodyInset * k, y: Self.macBodyInset * k, width: Self.macBodySide * k,
                                                       height: Self.macBodySide * k, radius: Self.macBodyRadius * k)
            let shadow = CoverageMask(path: body.translated(dx: 0, dy: Self.macShadowOffset * k), width: s, height: s)
            canvas.fill(GaussianBlur(sigma: Self.macShadowSigma * k).blurred(shadow),
                        color: Color(red: 0, green: 0, blue: 0, alpha: Self.macShadowAlpha))
            // The body is composed whole, then cut to its shape, so its edge pixels mix art and
            // shadow by coverage alone (drawing through a clip would let the body's fill show).
            var layer = Canvas(width: s, height: s)
            layer.fill(rect: Rect(width: s, height: s), color: background)
            let origin = Int((Self.macBodyInset * k).rounded()), side = Int((Self.macBodySide * k).rounded())
            let i = inset(side)
            try art(.light, size: s).draw(on: &layer, x: origin + i, y: origin + i, side: side - 2 * i)
            layer.mask(by: body)
            canvas.draw(layer.bitmap, at: 0, y: 0)
        case .androidLegacy(let round):
            // 2 dp in from the 48 dp icon's edge: a circle, or a square with 3 dp corners.
            let k = Double(s) / 48
            let shape = round ? Path.circle(cx: Double(s) / 2, cy: Double(s) / 2, radius: 22 * k)
                : Path.roundedRectangle(x: 2 * k, y: 2 * k, width: 44 * k, height: 44 * k, radius: 3 * k)
            canvas.fill(rect: Rect(width: s, height: s), color: background)
            let art = try self.art(.light, size: s)
            if round && set.fitContent {
                art.draw(on: &canvas, cx: Double(s) / 2, cy: Double(s) / 2, radius: padded(22 * k))
            } else {
                let origin = Int((2 * k).rounded()), side = Int((44 * k).rounded()), i = inset(side)
                art.draw(on: &canvas, x: origin + i, y: origin + i, side: side - 2 * i)
            }
            canvas.mask(by: shape)
        case .adaptive(let layer):
            canvas = try adaptive(layer, canvasSize: s, layerSide: Double(s), offset: 0)
        case .playStore:
            // The 72 dp launchers show of the 108 dp layers, as 512 px: layers of 768 px, cropped.
            let layerSide = Double(s) * Double(AndroidIconFiles.adaptiveDP) / AndroidIconFiles.visibleDP
            let offset = (layerSide - Double(s)) / 2
            canvas = try adaptive(.background, canvasSize: s, layerSide: layerSide, offset: offset)
            canvas.draw(try adaptive(.foreground, canvasSize: s, layerSide: layerSide, offset: offset).bitmap, at: 0, y: 0)
            canvas.flatten(onto: background)
        case .maskable:
            if let designed = try sourceArt(.maskable) {
                designed.cover(on: &canvas, x: 0, y: 0, side: s)
            } else {
                let c = Double(s) / 2, r = 0.4 * Double(s)
                var layer = Canvas(width: s, height: s)
                try art(.light, size: s).draw(on: &layer, cx: c, cy: c, radius: padded(r))
                layer.mask(by: .circle(cx: c, cy: c, radius: r))
                canvas.draw(layer.bitmap, at: 0, y: 0)
            }
            canvas.flatten(onto: background)
        }
        return Image(canvas.bitmap)
    }

    /// One layer of the adaptive icon on a `canvasSize` canvas, the 108 dp layer being
    /// `layerSide` pixels with its top-left corner `offset` pixels up and left of the canvas.
    /// Foreground and monochrome keep to the 66 dp safe circle: drawn full bleed when given as
    /// layers (fitted into the circle with `fitContent`), fitted into it when made from the master,
    /// and cut to it either way.
    private func adaptive(_ layer: IconLook.AdaptiveLayer, canvasSize s: Int, layerSide: Double, offset: Double) throws(IconError) -> Canvas {
        var canvas = Canvas(width: s, height: s)
        let c = layerSide / 2 - offset
        let r = layerSide * AndroidIconFiles.safeZoneDP / Double(AndroidIconFiles.adaptiveDP) / 2
        let full = (x: Int((-offset).rounded()), side: Int(layerSide.rounded()))
        switch layer {
        case .background:
            if let designed = try sourceArt(.background) {
                designed.cover(on: &canvas, x: full.x, y: full.x, side: full.side)
            } else {
                canvas.fill(rect: Rect(width: s, height: s), color: set.androidBackgroundColor ?? background)
            }
            return canvas
        case .foreground, .monochrome:
            let given = try sourceArt(layer == .foreground ? .foreground : .monochrome)
            if layer == .monochrome && given == nil {
                // Android 13 tints the monochrome layer by its alpha alone: the foreground's shape.
                var made = try adaptive(.foreground, canvasSize: s, layerSide: layerSide, offset: offset).bitmap
                for i in stride(from: 0, to: made.pixels.count, by: 4) {
                    let a = made.pixels[i + 3]
                    made.pixels[i] = a; made.pixels[i + 1] = a; made.pixels[i + 2] = a
                }
                return Canvas(bitmap: made)
            }
            if let given, !set.fitContent {
                given.cover(on: &canvas, x: full.x, y: full.x, side: full.side)
            } else {
                let fitted: IconArt
                if let given { fitted = given } else { fitted = try art(.light, size: s) }
                fitted.draw(on: &canvas, cx: c, cy: c, radius: padded(r))
            }
            canvas.mask(by: .circle(cx: c, cy: c, radius: r))
            return canvas
        }
    }

    /// The art of a role at an output size: the master, a size source, `--dark`, `--tinted` or the
    /// master in grey.
    private func art(_ role: IconArtRole, size: Int) throws(IconError) -> IconArt {
        switch role {
        case .light:
            if let key = set.sizeSources.keys.filter({ $0 >= size }).min() {
                return try decoded(set.sizeSources[key]!, key: "size-\(key)")
            }
            return try decodedMaster()
        case .dark:
            if let given = try sourceArt(.dark) { return given }
            return try art(.light, size: size)
        case .tinted:
            if let given = try sourceArt(.tinted) { return given }
            let key = "tinted-\(set.sizeSources.keys.filter { $0 >= size }.min() ?? 0)"
            if let made = arts[key] { return made }
            let grey = try art(.light, size: size).greyscale()
            arts[key] = grey
            return grey
        }
    }

    /// The art of a stand-in, if the set has one.
    private func sourceArt(_ role: IconSet.SourceRole) throws(IconError) -> IconArt? {
        guard let source = set.sources[role] else { return nil }
        return try decoded(source, key: role.rawValue)
    }

    private func decodedMaster() throws(IconError) -> IconArt {
        try decoded(self.master, key: "", shown: nil)
    }

    private func decoded(_ source: IconSet.Source, key: String) throws(IconError) -> IconArt {
        guard let path = source.path.string else {
            throw .decode(source: source.path.description, .unreadable(reason: "the name is not UTF-8"))
        }
        return try decoded(.file(path), key: key, shown: source.path.description)
    }

    private func decoded(_ source: ImageSource, key: String, shown: String?) throws(IconError) -> IconArt {
        if let made = arts[key] { return made }
        let image: Image
        do {
            let decoded = try Self.decode(source, limits: set.limits)
            image = decoded.image
            for warning in decoded.warnings {
                let line = (shown.map { "\($0): " } ?? "") + warning
                if !warnings.contains(line) { warnings.append(line) }
            }
        } catch {
            throw .decode(source: shown, error)
        }
        guard let art = IconArt(image: image.converted8(), fitContent: set.fitContent) else { throw .noVisiblePixels(source: shown) }
        arts[key] = art
        return art
    }

    /// Bytes a decode plans to hold besides the pictures: the decoded image and the copy turning
    /// it upright or converting its colours makes (4 bytes a pixel a copy, 8 when 16-bit), its
    /// 8-bit copy and a grey copy.
    static func plannedBytes(width: Int, height: Int, bytesPerSample: Int) -> UInt64 {
        UInt64(width) * UInt64(height) * UInt64(8 * bytesPerSample + 8)
    }

    /// The pictures' canvases, masks and encoders, at most 1024 px a side: what a set holds
    /// besides its sources.
    static let workingBytes: UInt64 = 96 << 20

    /// A source decoded whole, upright and in sRGB, after its plan was checked against the
    /// memory budget.
    static func decode(_ source: ImageSource, limits: DecodeLimits) throws(DecodeError) -> (image: Image, warnings: [String]) {
        let decoder = try source.openDecoder(limits: limits)
        let header = decoder.header
        let needed = plannedBytes(width: header.storedWidth, height: header.storedHeight, bytesPerSample: header.bitDepth > 8 ? 2 : 1)
            + workingBytes + decoder.workingBytes
        if limits.maxMemory > 0 && needed > limits.maxMemory {
            throw .limitExceeded(LimitExceeded(limit: .memory, width: header.width, height: header.height, actual: needed, allowed: limits.maxMemory))
        }
        var options = ThumbnailOptions(limits: limits)
        options.shrinkOnLoad = false
        let plan = DecodePlan(header: header, decoder: type(of: decoder), options: options) { _, _ in [] }
        return try plan.decode(decoder)
    }
}
