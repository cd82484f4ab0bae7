/// Where everything sits on a contact sheet page, at @1x (every length is multiplied by the
/// scale: @2x and @3x pages are the same layout, exactly twice and three times the size).
///
/// The page is a grid of `columns` tiles with `gap` pixels between tiles and around the grid. A
/// tile is the cell's box, plus, when badges go under the pictures, a strip of `strip` pixels
/// (the badge's margin and height), plus, with labels, `label` pixels (a gap and a line of text).
/// The strip and the label are reserved in every tile, but drawn right under the fitted picture:
/// the picture, strip and label are placed together in the tile by the vertical gravity, so a
/// landscape photo's stars sit under it, not under the empty square its box reserved.
package struct SheetLayout: Sendable, Hashable {
    /// Tiles per row.
    package let columns: Int
    /// Rows of tiles.
    package let rows: Int
    /// The box a picture is fitted into.
    package let cellWidth: Int
    package let cellHeight: Int
    /// The badge strip under each box (0 without one).
    package let strip: Int
    /// The label under the strip (0 without labels).
    package let label: Int
    /// Gap between tiles and around the grid.
    package let gap: Int

    /// The layout of a page of `count` cells.
    package init(count: Int, columns: Int, cellWidth: Int, cellHeight: Int, strip: Int, label: Int = 0, gap: Int) {
        self.columns = max(1, min(columns, count))
        self.rows = max(1, (count + self.columns - 1) / self.columns)
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.strip = strip
        self.label = label
        self.gap = gap
    }

    /// A tile's height: the box, the strip and the label.
    package var tileHeight: Int { cellHeight + strip + label }

    /// The page's width at @1x.
    package var width: Int { columns * cellWidth + (columns + 1) * gap }
    /// The page's height at @1x.
    package var height: Int { rows * tileHeight + (rows + 1) * gap }

    /// The tile of cell `index` (row-major) at @1x.
    package func tile(_ index: Int) -> SheetRect {
        SheetRect(x: gap + (index % columns) * (cellWidth + gap), y: gap + (index / columns) * (tileHeight + gap),
             width: cellWidth, height: tileHeight)
    }
}

/// A rectangle of whole pixels on a sheet page.
package struct SheetRect: Sendable, Hashable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Every length multiplied by `scale`.
    func scaled(_ scale: Int) -> SheetRect { SheetRect(x: x * scale, y: y * scale, width: width * scale, height: height * scale) }
}
