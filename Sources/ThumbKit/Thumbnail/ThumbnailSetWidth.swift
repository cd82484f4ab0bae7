extension ThumbnailSet {
    /// One width of a set of widths (`--widths 320,640,auto`): a number of pixels, or the source's own.
    public enum Width: Sendable, Hashable, CustomStringConvertible {
        /// This many pixels wide at @1x.
        case pixels(Int)
        /// As wide as the source (upright): `auto`.
        case source

        /// Parses `640` or `auto`; nil for anything else (0, negative, above `ThumbnailSize.maximumSide`).
        public init?(parsing text: String) {
            if text == "auto" {
                self = .source
                return
            }
            guard !text.isEmpty, text.count <= 8, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(text), (1...ThumbnailSize.maximumSide).contains(value) else { return nil }
            self = .pixels(value)
        }

        /// `640` or `auto`, as `--widths` takes it.
        public var description: String {
            switch self {
            case .pixels(let value): return String(value)
            case .source: return "auto"
            }
        }

        /// The widths a source `sourceWidth` pixels wide gets, ascending, each once, by eleventy-img's
        /// rule: without `enlarge`, widths above the source are dropped, and the source's own width is
        /// added in their place once, unless the largest width below it is within a factor 1.25 of it
        /// (`largest * 1.25 >= sourceWidth`: a copy hardly larger is not worth its bytes). When every
        /// width is above the source, the source width is the one output. `auto` is always the
        /// source's width.
        public static func resolve(_ choices: [ThumbnailSet.Width], sourceWidth: Int, enlarge: Bool) -> [Int] {
            let asked = Set(choices.map { choice -> Int in
                if case .pixels(let value) = choice { return value }
                return sourceWidth
            }).sorted()
            guard !enlarge else { return asked }
            var widths = asked.filter { $0 <= sourceWidth }
            if asked.contains(where: { $0 > sourceWidth }) && !widths.contains(sourceWidth) {
                // 1.25 in integer arithmetic: largest * 5 / 4 >= sourceWidth keeps the set as it is.
                if let largest = widths.last, largest * 5 >= sourceWidth * 4 {
                    return widths
                }
                widths.append(sourceWidth)
            }
            return widths
        }
    }
}
