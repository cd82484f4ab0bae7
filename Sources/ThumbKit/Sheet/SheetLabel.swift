extension SheetOptions {
    /// The line of text under each cell of a contact sheet: a format whose directives are filled in
    /// per photo — `%f` the file name, `%r` the rating (`4/5`, `2.5/5`, `rejected`, `unrated`), `%d`
    /// the capture date (EXIF `DateTimeOriginal` as `2024-06-01 14:03`; empty when the photo has
    /// none), `%w` and `%h` the source's upright width and height (`?` when its header could not be
    /// read), `%%` a percent sign; everything else is literal.
    ///
    /// It is drawn in the bundled 6×13 bitmap font (`BitmapFont.fixed6x13`) at a whole
    /// magnification chosen from the cell width, so a line holds at least `minimumColumns`
    /// characters; a longer line is cut to the cell and ends in `…`.
    public struct Label: Sendable, Hashable {
        /// The format as given.
        public let format: String

        /// Characters a line holds at least: the font is magnified only while this many still fit.
        static let minimumColumns = 20
        /// Pixels between the badge strip (or the picture) and the text at @1x.
        static let gap = 2

        /// Validates the format: only the directives above, no lone `%`, not empty.
        public init(format: String) throws(SheetError) {
            guard !format.isEmpty else { throw .invalidLabel(format: format, reason: "it is empty") }
            var chars = format.makeIterator()
            while let c = chars.next() {
                guard c == "%" else { continue }
                guard let directive = chars.next() else { throw .invalidLabel(format: format, reason: "it ends with a lone '%'") }
                guard "frdwh%".contains(directive) else {
                    throw .invalidLabel(format: format, reason: "unknown directive '%\(directive)' (use %f, %r, %d, %w, %h or %%)")
                }
            }
            self.format = format
        }

        /// True when the format needs what only the photo's header tells (the date or the size).
        var needsHeader: Bool { format.contains("%d") || format.contains("%w") || format.contains("%h") }

        /// The label of one photo, before fitting.
        func text(for cell: SheetPlan.Cell) -> String {
            var out = ""
            var chars = format.makeIterator()
            while let c = chars.next() {
                guard c == "%", let directive = chars.next() else { out.append(c); continue }
                switch directive {
                case "f": out += cell.source.name.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
                case "r": out += Self.ratingText(cell.rating)
                case "d": out += cell.captureDate.map(Self.dateText) ?? ""
                case "w": out += cell.sourceWidth.map(String.init) ?? "?"
                case "h": out += cell.sourceHeight.map(String.init) ?? "?"
                default: out.append(directive)
                }
            }
            return out
        }

        /// `4/5`, `2.5/5`, `rejected` or `unrated`.
        static func ratingText(_ rating: Rating?) -> String {
            switch rating {
            case .stars(let stars): return (stars == stars.rounded() ? String(Int(stars)) : String(stars)) + "/5"
            case .rejected: return "rejected"
            case nil: return "unrated"
            }
        }

        /// EXIF's `2024:06:01 14:03:22` as `2024-06-01 14:03`: the date as people write it, to the
        /// minute (seconds tell photos of one scene apart no better than their order does).
        static func dateText(_ exif: String) -> String {
            let chars = Array(exif)
            guard chars.count >= 16 else { return exif }
            return String(chars[0..<4]) + "-" + String(chars[5..<7]) + "-" + String(chars[8..<10]) + " " + String(chars[11..<16])
        }

        /// The characters drawn for `text` in at most `columns` cells of the font: the text itself
        /// when it fits, else as much as fits before a closing `…`. Nil when nothing is left to draw.
        static func fitted(_ text: String, columns: Int) -> [Unicode.Scalar]? {
            let scalars = Array(text.unicodeScalars)
            guard columns > 0, !scalars.isEmpty else { return nil }
            if scalars.count <= columns { return scalars }
            return Array(scalars.prefix(columns - 1)) + [BitmapFont.ellipsis]
        }

        /// The font magnification for a cell this wide at @1x: the largest whole number that still
        /// fits `minimumColumns` characters, at least 1.
        static func magnification(cellWidth: Int, font: BitmapFont = .fixed6x13) -> Int {
            max(1, cellWidth / (minimumColumns * font.width))
        }

        /// The height of the label strip at @1x for a cell this wide: the gap and one line.
        static func stripHeight(cellWidth: Int, font: BitmapFont = .fixed6x13) -> Int {
            gap + font.height * magnification(cellWidth: cellWidth, font: font)
        }

        /// The text colour on a sheet of this background: near-black on light (and transparent)
        /// pages, near-white on dark ones, split at mid-grey luminance.
        static func color(on background: Color?) -> Color {
            guard let background, background.alpha >= 128 else { return Self.dark }
            let luminance = 0.2126 * Double(background.red) + 0.7152 * Double(background.green) + 0.0722 * Double(background.blue)
            return luminance < 128 ? Self.light : Self.dark
        }

        static let dark = Color(red: 0x33, green: 0x33, blue: 0x33)
        static let light = Color(red: 0xE6, green: 0xE6, blue: 0xE6)

        /// The label image of `text` for a cell this wide at @1x, drawn at `scale`: the fitted line at
        /// the cell's magnification times `scale`, in `color`. Nil for an empty label.
        static func image(_ text: String, cellWidth: Int, scale: Int, color: Color, font: BitmapFont = .fixed6x13) -> Image? {
            let k = magnification(cellWidth: cellWidth, font: font)
            guard let line = fitted(text, columns: cellWidth / (font.width * k)) else { return nil }
            let mask = font.coverage(of: line, magnification: k * scale)
            var canvas = Canvas(width: mask.width, height: mask.height, light: .sRGB)
            canvas.fill(mask, color: color)
            return Image(canvas.bitmap)
        }
    }
}
