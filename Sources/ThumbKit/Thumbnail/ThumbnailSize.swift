/// A requested thumbnail box, as written on the command line in ImageMagick/vipsthumbnail geometry
/// syntax: `N` (an N×N box), `WxH`, `Wx` (width only: any height), `xH` (height only), and a suffix
/// `>` (shrink only, the default), `<` (enlarge only), `!` (fill: ignore aspect ratio) or `^` (cover:
/// fill the box, cropping). One of `>`/`<` may be combined with one of `!`/`^`, in either order
/// (`256x256^>`). A box with an open side fits `inside` only: cover, fill and contain need both.
public struct ThumbnailSize: Sendable, Hashable, CustomStringConvertible {
    /// The largest accepted box side, in pixels (2^20). Large enough for "never scale" boxes such
    /// as `--size 100000`, small enough that a box at @3x stays within `FitPlan`'s 2^24 and every
    /// plan's integer arithmetic far from overflow. What an enlarged output may cost is bounded
    /// separately, by the pixel limit (`DecodeLimits.maxPixels`).
    public static let maximumSide = 1 << 20

    /// Stands for a side the box leaves open (`640x`): as long as any image can be, so the other
    /// side alone limits the fit.
    public static let open = FitPlan.maximumSide

    /// Box width in pixels, `1...maximumSide`, or `open`.
    public var width: Int
    /// Box height in pixels, `1...maximumSide`, or `open`.
    public var height: Int
    /// How the source fits the box.
    public var mode: FitMode
    /// Which way the source may be scaled.
    public var scale: ThumbnailSize.ScaleRule

    /// A box with the given sides; `inside`, shrink only by default. A `Thumbnailer` refuses a box
    /// whose sides are not `1...maximumSide` (`isValid`) with `ThumbnailError.invalidSize`.
    public init(width: Int, height: Int, mode: FitMode = .inside, scale: ThumbnailSize.ScaleRule = .shrinkOnly) {
        self.width = width
        self.height = height
        self.mode = mode
        self.scale = scale
    }

    /// True when both sides are `1...maximumSide` (or one is `open` and the fit is `inside`).
    public var isValid: Bool {
        func valid(_ side: Int) -> Bool { (1...ThumbnailSize.maximumSide).contains(side) || side == ThumbnailSize.open }
        return valid(width) && valid(height) && !(width == ThumbnailSize.open && height == ThumbnailSize.open)
            && (!hasOpenSide || mode == .inside)
    }

    /// True when the box leaves its width or height open (`640x`, `x480`).
    public var hasOpenSide: Bool { width == ThumbnailSize.open || height == ThumbnailSize.open }

    /// Parses `N`, `WxH` (`x` or `X`), `Wx`, `xH`, with optional suffixes `>`, `<`, `!`, `^`.
    public init(parsing text: String) throws(ThumbnailSize.ParseError) {
        var body = Substring(text)
        var mode: FitMode?
        var scale: ThumbnailSize.ScaleRule?
        while let last = body.last, "<>!^".contains(last) {
            body = body.dropLast()
            switch last {
            case ">", "<":
                guard scale == nil else {
                    throw ThumbnailSize.ParseError(text: text, reason: "at most one of '>' and '<'")
                }
                scale = last == ">" ? .shrinkOnly : .enlargeOnly
            default:
                guard mode == nil else {
                    throw ThumbnailSize.ParseError(text: text, reason: "at most one of '!' and '^'")
                }
                mode = last == "!" ? .fill : .cover
            }
        }
        let sides = body.split(separator: "x", maxSplits: 2, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "X", omittingEmptySubsequences: false) }
        guard sides.count == 1 || sides.count == 2 else {
            throw ThumbnailSize.ParseError(text: text, reason: "expected N, WxH, Wx or xH")
        }
        var values: [Int] = []
        for side in sides {
            // `640x` and `x480`: one side open, as vipsthumbnail and ImageMagick read them.
            if side.isEmpty && sides.count == 2 && !sides.allSatisfy(\.isEmpty) {
                guard mode == nil else {
                    throw ThumbnailSize.ParseError(text: text, reason: "'\(mode == .cover ? "^" : "!")' needs both sides")
                }
                values.append(ThumbnailSize.open)
                continue
            }
            guard !side.isEmpty, side.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw ThumbnailSize.ParseError(text: text, reason: "expected N, WxH, Wx or xH with positive whole numbers")
            }
            guard let value = Int(side), (1...ThumbnailSize.maximumSide).contains(value) else {
                throw ThumbnailSize.ParseError(text: text, reason: "sides must be 1 to \(ThumbnailSize.maximumSide)")
            }
            values.append(value)
        }
        self.init(width: values[0], height: values.count == 2 ? values[1] : values[0],
                  mode: mode ?? .inside, scale: scale ?? .shrinkOnly)
    }

    /// The canonical spelling: `WxH` (`Wx`, `xH` with an open side) with the suffixes that differ
    /// from the defaults. `contain` has no geometry suffix (it is chosen by option, not by size
    /// string) and prints like `inside`.
    public var description: String {
        var text = sides
        switch mode {
        case .cover: text += "^"
        case .fill: text += "!"
        case .inside, .contain: break
        }
        switch scale {
        case .enlargeOnly: text += "<"
        case .shrinkOnly, .any: break
        }
        return text
    }

    /// `WxH`, with an open side left empty (`640x`, `x480`).
    public var sides: String {
        (width == ThumbnailSize.open ? "" : String(width)) + "x" + (height == ThumbnailSize.open ? "" : String(height))
    }
}
