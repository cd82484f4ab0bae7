/// The JSON written beside each sheet page: every cell's photo, rating and rectangle, so a web
/// page can make an image map of the sheet (or a test can check the layout).
///
/// ```json
/// {
///   "cells": [
///     {"height": 150, "picture": {"height": 85, "width": 128, "x": 8, "y": 29},
///      "rating": 4.5, "ratingOrigin": "xmp", "source": "photos/a.jpg", "width": 128, "x": 8, "y": 8}
///   ],
///   "files": [{"file": "sheet.png", "scale": 1}, {"file": "sheet@2x.png", "scale": 2}],
///   "height": 174, "page": 1, "pages": 1, "width": 144
/// }
/// ```
///
/// Rectangles are @1x pixels (at @2x and @3x multiply them). A cell's rectangle is its tile (the
/// box, and the badge strip under it); `picture` is where the photo is within it, absent when it
/// could not be drawn (then `error` says why). `rating` is the stored number (−1 rejected) or null;
/// `ratingOrigin` is `xmp`, `exif`, `sidecar`, `ratings-file` or null. Keys are sorted and the
/// layout fixed, so the same sheet gives the same bytes.
package enum SheetMap {
    /// The map of `page`, whose files at each scale (ascending, as `page.files`) are named `fileNames`.
    package static func json(for page: SheetPage, fileNames: [String]) -> [UInt8] {
        let cells: [JSONValue] = page.cells.map { cell in
            var members: [String: JSONValue] = [
                "source": .string(cell.name),
                "rating": cell.rating?.jsonValue ?? .null,
                "ratingOrigin": cell.ratingOrigin.map { .string($0.rawValue) } ?? .null,
            ].merging(rect(cell.tile)) { $1 }
            if let picture = cell.picture { members["picture"] = .object(rect(picture)) }
            if let error = cell.error { members["error"] = .string(error) }
            return .object(members)
        }
        let files: [JSONValue] = zip(page.files, fileNames).map { file, name in
            .object(["file": .string(name), "scale": .integer(Int64(file.scale))])
        }
        return JSONWriter.bytes(.object([
            "cells": .array(cells),
            "files": .array(files),
            "width": .integer(Int64(page.layout.width)),
            "height": .integer(Int64(page.layout.height)),
            "page": .integer(Int64(page.index + 1)),
            "pages": .integer(Int64(page.pageCount)),
        ]))
    }

    private static func rect(_ r: SheetRect) -> [String: JSONValue] {
        ["x": .integer(Int64(r.x)), "y": .integer(Int64(r.y)), "width": .integer(Int64(r.width)), "height": .integer(Int64(r.height))]
    }
}

/// The names of a sheet's files: `sheet.png`, `sheet@2x.png`, and with pages `sheet-1.png`,
/// `sheet-1@2x.png`, …; each page's map is `sheet.json` / `sheet-1.json`.
package struct SheetNaming: Sendable, Hashable {
    /// The name without its extension, e.g. `out/sheet`.
    package let stem: String
    /// The extension without its dot, e.g. `png`.
    package let fileExtension: String
    /// Whether pages are numbered (`--per-page` was given, even if one page results).
    package let numbered: Bool

    package init(stem: String, fileExtension: String, numbered: Bool) {
        self.stem = stem
        self.fileExtension = fileExtension
        self.numbered = numbered
    }

    private func base(page: Int) -> String { numbered ? "\(stem)-\(page + 1)" : stem }

    /// Page `page` (from 0) at `scale`.
    package func image(page: Int, scale: Int) -> String {
        base(page: page) + (scale == 1 ? "" : "@\(scale)x") + "." + fileExtension
    }

    /// Page `page`'s map.
    package func map(page: Int) -> String { base(page: page) + ".json" }
}

extension SheetPage {
    /// The page's map (`SheetMap`'s JSON: every cell's photo, rating and rectangles), its files at
    /// each scale (ascending, as `files`) named `fileNames`: what `thumbgen sheet` writes beside it.
    public func mapJSON(fileNames: [String]) -> [UInt8] { SheetMap.json(for: self, fileNames: fileNames) }
}
