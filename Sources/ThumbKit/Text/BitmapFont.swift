/// A fixed-width bitmap font shipped as data, so text on a contact sheet is the same pixels on every
/// machine (no system font lookup, no hinting, no rasterizer version).
///
/// Invariants: every glyph is `height` rows of one byte each, the leftmost of its `width` (≤ 8)
/// pixels in the top bit; `glyphs[fallback]` exists and is drawn for any character the font lacks.
struct BitmapFont: Sendable {
    /// Glyph cell width and height in pixels, and the row the baseline is under (the ascent).
    let width: Int
    let height: Int
    let baseline: Int
    /// The glyphs by Unicode scalar value.
    let glyphs: [UInt32: [UInt8]]
    /// The scalar whose glyph stands in for characters the font lacks.
    let fallback: UInt32

    /// The character that marks text cut short (`…`).
    static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// The glyph of `scalar`, or the fallback's.
    func glyph(_ scalar: Unicode.Scalar) -> [UInt8] {
        glyphs[scalar.value] ?? glyphs[fallback]!
    }

    /// The coverage of one line of text, each font pixel drawn as a `magnification` × `magnification`
    /// square: 1 on glyph pixels, 0 elsewhere, so an integer magnification stays crisp and the
    /// pixels at @2x are exactly those at @1x doubled. `text` must not be empty.
    func coverage(of text: [Unicode.Scalar], magnification: Int) -> CoverageMask {
        let k = magnification
        let lineWidth = text.count * width * k
        var values = [Float](repeating: 0, count: lineWidth * height * k)
        for (index, scalar) in text.enumerated() {
            for (row, bits) in glyph(scalar).enumerated() where bits != 0 {
                for column in 0..<width where bits & (0x80 >> column) != 0 {
                    for dy in 0..<k {
                        let start = (row * k + dy) * lineWidth + (index * width + column) * k
                        for dx in 0..<k { values[start + dx] = 1 }
                    }
                }
            }
        }
        return CoverageMask(width: lineWidth, height: height * k, values: values)
    }
}
