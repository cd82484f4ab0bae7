/// A loading placeholder to compute for each source: what `--placeholder` lists.
public enum Placeholder: Sendable, Hashable {
    /// ThumbHash of the source fitted into 100×100 (`ThumbHash`), base64 (standard alphabet, padded).
    case thumbhash
    /// BlurHash of the whole decoded image with these components (`BlurHash`).
    case blurhash(BlurHash)
    /// A tiny lossy WebP, this many pixels on the long side, as a `data:image/webp;base64,` URI.
    case lqip(longSide: Int)
    /// The mean colour in linear light, written in sRGB as `#rrggbb`.
    case color

    /// The kind's name: the manifest's and the metadata's key.
    public var name: String {
        switch self {
        case .thumbhash: return "thumbhash"
        case .blurhash: return "blurhash"
        case .lqip: return "lqip"
        case .color: return "color"
        }
    }

    /// As `--placeholder` and the settings description spell it, parameters included
    /// (`blurhash=4x3`, `lqip=16`).
    public var description: String {
        switch self {
        case .blurhash(let hash): return "blurhash=\(hash.xComponents)x\(hash.yComponents)"
        case .lqip(let side): return "lqip=\(side)"
        default: return name
        }
    }

    /// The long side `lqip` defaults to.
    public static let defaultLQIPSide = 16
    /// The long sides `lqip=N` takes: a placeholder is meant to be a few hundred bytes.
    public static let lqipSides = 1...64
    /// The WebP quality of an lqip image: at 16 px the browser's blur hides the artefacts, and
    /// the data URI stays near 150 bytes.
    static let lqipQuality = 50

    /// One item of `--placeholder`: `thumbhash`, `blurhash`, `blurhash=XxY`, `lqip`, `lqip=N`, `color`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count) {
        case ("thumbhash", 1): self = .thumbhash
        case ("color", 1), ("colour", 1): self = .color
        case ("blurhash", 1): self = .blurhash(BlurHash())
        case ("blurhash", 2):
            let sides = parts[1].lowercased().split(separator: "x", omittingEmptySubsequences: false).compactMap { Int($0) }
            guard sides.count == 2, BlurHash.componentRange.contains(sides[0]), BlurHash.componentRange.contains(sides[1]) else { return nil }
            self = .blurhash(BlurHash(xComponents: sides[0], yComponents: sides[1]))
        case ("lqip", 1): self = .lqip(longSide: Self.defaultLQIPSide)
        case ("lqip", 2):
            guard let side = Int(parts[1]), Self.lqipSides.contains(side) else { return nil }
            self = .lqip(longSide: side)
        default: return nil
        }
    }

    /// A list as `--placeholder` takes it (`thumbhash,blurhash=4x3`), each kind once, in the order
    /// given; nil when an item is not one.
    public static func list(parsing text: String) -> [Placeholder]? {
        var out: [Placeholder] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let placeholder = Placeholder(parsing: String(item).lowercased()) else { return nil }
            guard !out.contains(where: { $0.name == placeholder.name }) else { return nil }
            out.append(placeholder)
        }
        return out
    }
}
