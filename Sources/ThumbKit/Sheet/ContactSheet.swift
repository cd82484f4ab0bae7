import Synchronization

/// Contact sheets: many photos' thumbnails laid out in a grid on one image per page, each with its
/// star rating, and beside each page a map of where every photo is (`SheetMap`).
///
/// ```swift
/// var options = SheetOptions()
/// options.columns = 4
/// options.order = .rating
/// let sheet = ContactSheet(options: options)
/// let plan = try sheet.plan([SheetSource(name: "a.jpg", image: .file("a.jpg"))])
/// let page = try sheet.render(page: 0, of: plan)
/// ```
///
/// Planning reads every photo's header (in parallel, nothing decoded); rendering decodes one photo
/// per job at a time and draws its cell straight onto the page, so memory is the page and one
/// decoded photo per job, however many photos there are.
public struct ContactSheet: Sendable {
    public let options: SheetOptions
    /// Threads that read and decode photos.
    public let jobs: Int

    public init(options: SheetOptions, jobs: Int = 1) {
        self.options = options
        self.jobs = max(1, jobs)
    }

    // MARK: Planning

    /// Reads each photo's rating (its outside rating, else the file's own), leaves out unreadable
    /// photos and those under `minimumRating`, orders and pages the rest. Throws when the options
    /// cannot make a sheet or a page would be too large, before anything is decoded.
    ///
    /// A photo's header is read when its rating, its date (`%d`, `Order.date`) or its size
    /// (`%w`, `%h`) is needed from it; one with an outside rating whose header cannot be read
    /// is still planned (it fails as its cell is drawn, as without labels).
    public func plan(_ sources: [SheetSource]) throws(SheetError) -> SheetPlan {
        try validate()
        let limits = options.thumbnail.limits
        let needsHeader = options.order == .date || options.label?.needsHeader == true
        let autoRotate = options.thumbnail.autoRotate
        let read = WorkerPool.map(sources, threads: min(jobs, sources.count / 16 + 1), stackSize: WorkerPool.renderStackSize,
                                  batchSize: 4) { source -> Result<(RatingLookup, HeaderFacts), ThumbnailError> in
            let external = source.externalRating.rating != nil
            if external && !needsHeader { return .success((source.externalRating, HeaderFacts())) }
            do throws(DecodeError) {
                let header = try source.image.header(limits: limits)
                let facts = HeaderFacts(header, autoRotate: autoRotate)
                if external { return .success((source.externalRating, facts)) }
                var embedded = RatingReader.embeddedRating(in: header.metadata)
                embedded.warnings = source.externalRating.warnings + embedded.warnings
                return .success((embedded, facts))
            } catch {
                return external ? .success((source.externalRating, HeaderFacts())) : .failure(.decode(error))
            }
        }
        var cells: [(cell: SheetPlan.Cell, index: Int)] = []
        var failures: [SheetPlan.Message] = [], warnings: [SheetPlan.Message] = []
        var filteredOut = 0
        for (index, (source, result)) in zip(sources, read).enumerated() {
            switch result {
            case .failure(let error):
                failures.append(.init(name: source.name, text: error.message))
            case .success(let (lookup, facts)):
                warnings += lookup.warnings.map { SheetPlan.Message(name: source.name, text: $0) }
                if let minimum = options.minimumRating, !((lookup.rating?.stars).map { $0 >= minimum } ?? false) {
                    filteredOut += 1
                    continue
                }
                cells.append((SheetPlan.Cell(source: source, rating: lookup.rating, ratingOrigin: lookup.origin,
                                             captureDate: facts.captureDate, sourceWidth: facts.width, sourceHeight: facts.height), index))
            }
        }
        switch options.order {
        case .path: break
        case .rating: cells.sort { Self.ratingKey($0.cell.rating, $0.index) < Self.ratingKey($1.cell.rating, $1.index) }
        case .date: cells.sort { Self.dateKey($0.cell, $0.index) < Self.dateKey($1.cell, $1.index) }
        }
        let perPage = options.perPage ?? max(cells.count, 1)
        var pages = stride(from: 0, to: cells.count, by: perPage).map { Array(cells[$0 ..< min($0 + perPage, cells.count)].map(\.cell)) }
        if pages.isEmpty { pages = [[]] }
        try checkPageSize(layout(count: pages.map(\.count).max() ?? 0))
        return SheetPlan(pages: pages, failures: failures, warnings: warnings, filteredOut: filteredOut)
    }

    /// Sorts highest stars first, then unrated, then rejected; ties keep input order.
    private static func ratingKey(_ rating: Rating?, _ index: Int) -> (Int, Double, Int) {
        switch rating {
        case .stars(let stars): return (0, -stars, index)
        case nil: return (1, 0, index)
        case .rejected: return (2, 0, index)
        }
    }

    /// Sorts by capture time (EXIF's `YYYY:MM:DD HH:MM:SS` sorts as text), photos without one
    /// last, then by name, then input order.
    private static func dateKey(_ cell: SheetPlan.Cell, _ index: Int) -> (Int, String, String, Int) {
        (cell.captureDate == nil ? 1 : 0, cell.captureDate ?? "", cell.source.name, index)
    }

    /// What planning takes from a photo's header besides its rating.
    private struct HeaderFacts {
        var captureDate: String?
        var width: Int?
        var height: Int?

        init() {}

        init(_ header: ImageHeader, autoRotate: Bool) {
            captureDate = header.metadata.exif.flatMap { ExifReader(tiff: $0) }?.dateTimeOriginal
            (width, height) = autoRotate ? (header.width, header.height) : (header.storedWidth, header.storedHeight)
        }
    }

    private func validate() throws(SheetError) {
        guard (1...SheetOptions.maximumColumns).contains(options.columns) else {
            throw .invalidColumns(options.columns)
        }
        guard (0...10_000).contains(options.gap) else { throw .invalidGap(options.gap) }
        if let perPage = options.perPage, perPage < 1 { throw .invalidPerPage(perPage) }
        if let minimum = options.minimumRating, !(minimum.isFinite && Rating.starRange.contains(minimum)) {
            throw .invalidMinimumRating(minimum)
        }
        guard !options.scales.isEmpty, options.scales.allSatisfy({ StarBadge.scaleRange.contains($0) }) else {
            throw .invalidScales
        }
        let size = options.thumbnail.size
        guard size.isValid && size.width <= 10_000 && size.height <= 10_000 else {
            throw .invalidCell(width: size.width, height: size.height)
        }
        if case .on = options.badge {
            let footprint: (width: Int, height: Int)
            do { footprint = try badgeStyle.footprint(boxWidth: size.width, boxHeight: size.height) } catch { throw .badge(error) }
            if footprint.width > size.width || footprint.height > size.height {
                throw .badgeDoesNotFitCell(width: size.width, height: size.height)
            }
        } else if case .under = options.badge {
            do { _ = try underBadge(stars: 5, scale: 1) } catch { throw .badge(error) }
        }
    }

    /// Each page at each scale must be encodable and fit the pixel limit, and the pages' canvases
    /// (4 bytes a pixel at every scale, as much again while the largest is encoded) half the memory
    /// budget; the other half is the jobs'.
    private func checkPageSize(_ layout: SheetLayout) throws(SheetError) {
        let limits = options.thumbnail.limits
        var canvasBytes: UInt64 = 0, largest: UInt64 = 0
        for scale in options.scales {
            let width = layout.width * scale, height = layout.height * scale
            let side = options.thumbnail.format.maximumSide
            if width > side || height > side {
                throw .pageTooLarge(width: width, height: height, scale: scale,
                                    limit: .formatSide(format: options.thumbnail.format.displayName, pixels: side))
            }
            let pixels = UInt64(width) * UInt64(height)
            if limits.maxPixels != 0 && pixels > limits.maxPixels {
                throw .pageTooLarge(width: width, height: height, scale: scale, limit: .pixels(limit: limits.maxPixels))
            }
            canvasBytes += pixels * 4
            largest = max(largest, pixels * 4)
        }
        if limits.maxMemory != 0 && canvasBytes + largest > limits.maxMemory / 2 {
            throw .pageTooLarge(width: layout.width, height: layout.height, scale: 1,
                                limit: .memory(needed: canvasBytes + largest, budget: limits.maxMemory))
        }
    }

    // MARK: Layout

    /// The badge style with `badge`'s corner.
    private var badgeStyle: RatingBadgeStyle {
        var style = options.badgeStyle
        if case .on(let corner) = options.badge { style.corner = corner }
        return style
    }

    /// The layout of a page of `count` cells.
    package func layout(count: Int) -> SheetLayout {
        let size = options.thumbnail.size
        var strip = 0
        if case .under = options.badge {
            let cell = badgeStyle.cellSize(boxWidth: size.width, boxHeight: size.height)
            strip = badgeStyle.margin + cell + 2 * badgeStyle.platePadding(cellSize: cell)
        }
        let label = options.label == nil ? 0 : SheetOptions.Label.stripHeight(cellWidth: size.width)
        return SheetLayout(count: count, columns: options.columns, cellWidth: size.width, cellHeight: size.height,
                           strip: strip, label: label, gap: options.gap)
    }

    /// The badge drawn under a picture, as the layers to composite in order, each placed
    /// relative to the top-left of the badge's place: the badge on its plate as one image, or its
    /// halo (reaching out past that corner) and then the badge, as the overlay draws them.
    private func underBadge(stars: Double, scale: Int) throws(StarBadgeError) -> [(image: Image, x: Int, y: Int)] {
        let size = options.thumbnail.size, style = badgeStyle
        let cell = style.cellSize(boxWidth: size.width, boxHeight: size.height)
        let badge = try style.render(stars: stars, cellSize: cell, scale: scale)
        if let halo = style.haloImage(around: badge, cellSize: cell, scale: scale) {
            let reach = style.haloReach(cellSize: cell) * scale
            return [(halo, -reach, -reach), (badge, 0, 0)]
        }
        guard let plate = style.plateImage(around: badge, cellSize: cell, scale: scale) else { return [(badge, 0, 0)] }
        let padding = style.platePadding(cellSize: cell) * scale
        return [(plate.compositing(badge, x: padding, y: padding), 0, 0)]
    }

    // MARK: Rendering

    /// Draws page `index` of `plan` at every scale and encodes it. A photo that fails to decode
    /// leaves its cell empty and is reported in the page's cells. `cellDone` is called as each
    /// cell is drawn (from the worker that drew it, so possibly from several threads at once), for
    /// a progress bar.
    public func render(page index: Int, of plan: SheetPlan, cellDone: (@Sendable () -> Void)? = nil) throws(SheetError) -> SheetPage {
        let cells = plan.pages[index]
        let layout = layout(count: cells.count)
        let background = options.thumbnail.background ?? (options.thumbnail.format.holdsAlpha ? nil : .white)
        let canvases = options.scales.map { PageCanvas(width: layout.width * $0, height: layout.height * $0, background: background) }
        let thumbnailer = Thumbnailer(options: cellOptions)
        let labelColor = SheetOptions.Label.color(on: background)
        let results = WorkerPool.map(Array(cells.enumerated()), threads: min(jobs, cells.count), stackSize: WorkerPool.renderStackSize) {
            let cell = drawCell($0.element, at: $0.offset, layout: layout, thumbnailer: thumbnailer, labelColor: labelColor, into: canvases)
            cellDone?()
            return cell
        }
        var files: [SheetPage.File] = []
        for (scale, canvas) in zip(options.scales, canvases) {
            let image = canvas.finish()
            do {
                let bytes = try options.thumbnail.format.encode(image, colorType: options.thumbnail.colorType, keepsProfile: false, iccProfile: nil)
                files.append(SheetPage.File(scale: scale, image: image, bytes: bytes))
            } catch {
                throw .encode(error)
            }
        }
        return SheetPage(index: index, pageCount: plan.pages.count, layout: layout, files: files, cells: results)
    }

    /// The options every cell's picture is made with: a per-job share of half the budget, sRGB, the
    /// badge drawn on the picture only when it goes on it.
    private var cellOptions: ThumbnailOptions {
        var cell = options.thumbnail
        cell.keepProfile = false
        if cell.limits.maxMemory != 0 { cell.limits.maxMemory = cell.limits.maxMemory / 2 / UInt64(jobs) }
        if case .on = options.badge { cell.ratingBadge = badgeStyle } else { cell.ratingBadge = nil }
        return cell
    }

    /// Renders one cell at every scale and writes it into its tile of each page canvas (tiles are
    /// disjoint, so workers write without locks).
    private func drawCell(_ cell: SheetPlan.Cell, at index: Int, layout: SheetLayout, thumbnailer: Thumbnailer,
                          labelColor: Color, into canvases: [PageCanvas]) -> SheetPage.Cell {
        let tile = layout.tile(index)
        var result = SheetPage.Cell(name: cell.source.name, rating: cell.rating, ratingOrigin: cell.ratingOrigin, tile: tile)
        let pictures: [Thumbnailer.Picture]
        do throws(ThumbnailError) {
            // The planned rating is drawn, so the page shows what the plan sorted and filtered by.
            pictures = try Thumbnailer.pictures(of: cell.source.image, sets: [ThumbnailSet(options: thumbnailer.options, scales: options.scales.map { Scale($0) })],
                                                rating: cell.rating, readsFileRating: false)[0]
        } catch {
            result.error = error.message
            return result
        }
        result.warnings = pictures.first?.warnings ?? []
        let gravity = options.thumbnail.gravity
        let label = options.label?.text(for: cell)
        for (picture, target) in zip(pictures, canvases) {
            // Sheets are made at whole scales (`SheetOptions.scales`).
            let scale = picture.scale.wholeValue!, box = tile.scaled(scale)
            let (hn, hd) = gravity.horizontal, (vn, vd) = gravity.vertical
            let x = box.x + (box.width - picture.image.width) * hn / hd
            // The picture with its strip and label under it, placed as one block in the tile.
            let below = (layout.strip + layout.label) * scale
            let y = box.y + (box.height - picture.image.height - below) * vn / vd
            target.copy(picture.image, x: x, y: y)
            if result.picture == nil {
                // In @1x pixels; at @2x and @3x the same up to rounding of odd sizes.
                result.picture = SheetRect(x: (x + picture.plan.x) / scale, y: (y + picture.plan.y) / scale,
                                           width: picture.plan.width / scale, height: picture.plan.height / scale)
            }
            let stripTop = y + picture.image.height
            if case .under = options.badge, let stars = cell.rating?.stars, let layers = try? underBadge(stars: stars, scale: scale) {
                // Centred by the badge (or plate) itself, the last layer; the halo hangs around it.
                let left = box.x + (box.width - layers[layers.count - 1].image.width) / 2, top = stripTop + badgeStyle.margin * scale
                for layer in layers { target.composite(layer.image, x: left + layer.x, y: top + layer.y) }
            }
            if let label, let line = SheetOptions.Label.image(label, cellWidth: layout.cellWidth, scale: scale, color: labelColor) {
                target.composite(line, x: box.x + (box.width - line.width) / 2,
                                 y: stripTop + (layout.strip + SheetOptions.Label.gap) * scale)
            }
        }
        return result
    }
}

/// One rendered page: its files at every scale and where every cell went.
public struct SheetPage: Sendable {
    /// One scale's image and file.
    public struct File: Sendable {
        public let scale: Int
        public let image: Image
        public let bytes: [UInt8]
    }

    /// One cell as drawn.
    public struct Cell: Sendable, Hashable {
        public let name: String
        public let rating: Rating?
        public let ratingOrigin: RatingOrigin?
        /// The tile at @1x: the box and the badge strip under it.
        package let tile: SheetRect
        /// The picture at @1x within the tile; nil when the photo could not be drawn.
        package var picture: SheetRect?
        /// Why the photo could not be drawn.
        public var error: String?
        /// Problems that did not stop it.
        public var warnings: [String] = []

        init(name: String, rating: Rating?, ratingOrigin: RatingOrigin?, tile: SheetRect) {
            self.name = name
            self.rating = rating
            self.ratingOrigin = ratingOrigin
            self.tile = tile
        }
    }

    /// The page's index, from 0, and how many pages the sheet has.
    public let index: Int
    public let pageCount: Int
    package let layout: SheetLayout
    /// The page at every scale, ascending.
    public let files: [File]
    /// The cells, in order.
    public let cells: [Cell]
}
