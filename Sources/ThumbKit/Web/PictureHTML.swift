/// The `<picture>` elements of a `WebImageSet`, as a page to include or open.
///
/// Per source: one `<source type srcset sizes>` per modern format it has (AVIF, then WebP), and
/// an `<img>` of the fallback format (JPEG, else PNG, else the last modern one) with its largest
/// variant as `src`, that variant's `width` and `height` (the browser reserves the box: no layout
/// shift), `loading="lazy"`, `decoding="async"`, `alt=""` (the page's author writes the text) and
/// the source path in `data-source`. With placeholders, the `<img>`'s background is the lqip
/// image (covering the box) or else the mean colour, until the image paints over it.
package struct PictureHTML: Sendable {
    /// The `sizes` attribute: how wide the image is shown (`100vw`, `(min-width: 800px) 50vw, 100vw`).
    package var sizes: String
    /// A whole HTML document around the pictures (else only the `<picture>` elements).
    package var document: Bool

    package init(sizes: String = "100vw", document: Bool = true) {
        self.sizes = sizes
        self.document = document
    }

    /// The markup, UTF-8, one element per line.
    package func render(_ set: WebImageSet) -> [UInt8] {
        var lines: [String] = []
        if document {
            lines += ["<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
                      "<title>thumbgen images</title>",
                      "<style>img { max-width: 100%; height: auto; }</style>", "</head>", "<body>"]
        }
        for source in set.sources {
            let formats = WebImageSet.orderedFormats(source)
            guard let fallback = formats.last(where: { !WebImageSet.modernFormats.contains($0) }) ?? formats.last,
                  let fallbackVariants = source.formats[fallback], let largest = fallbackVariants.last else { continue }
            lines.append("<picture>")
            for format in formats where format != fallback && WebImageSet.modernFormats.contains(format) {
                lines.append("  <source type=\"\(WebImageSet.mimeType(format))\" srcset=\"\(Self.escaped(WebImageSet.srcset(source.formats[format]!)))\" sizes=\"\(Self.escaped(sizes))\">")
            }
            var img = "  <img src=\"\(Self.escaped(largest.url))\" srcset=\"\(Self.escaped(WebImageSet.srcset(fallbackVariants)))\""
            img += " sizes=\"\(Self.escaped(sizes))\" width=\"\(largest.width)\" height=\"\(largest.height)\""
            img += " loading=\"lazy\" decoding=\"async\" alt=\"\" data-source=\"\(Self.escaped(source.path))\""
            if let lqip = source.placeholders["lqip"] {
                img += " style=\"background-size: cover; background-image: url(\(Self.escaped(lqip)))\""
            } else if let color = source.placeholders["color"] {
                img += " style=\"background-color: \(Self.escaped(color))\""
            }
            lines.append(img + ">")
            lines.append("</picture>")
        }
        if document { lines += ["</body>", "</html>"] }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Text for a double-quoted attribute.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
