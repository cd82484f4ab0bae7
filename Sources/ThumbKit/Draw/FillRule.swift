extension Path {
    /// Which points a path encloses, from the winding number w of the path around the point.
    public enum FillRule: Sendable, Hashable {
        /// Inside when w ≠ 0 (SVG `nonzero`): overlapping contours that turn the same way stay filled.
        case nonZero
        /// Inside when w is odd (SVG `evenodd`): every crossing of an edge toggles in and out.
        case evenOdd

        /// Whether a point with winding number `winding` is inside.
        @inline(__always)
        func contains(winding: Int) -> Bool {
            switch self {
            case .nonZero: return winding != 0
            case .evenOdd: return winding & 1 != 0
            }
        }
    }
}
