extension StarBadge {
    /// How a fractional rating fills a star, as in the Cosmos iOS rating view.
    ///
    /// Star i (0-based) has fill level `clamp(rating − i, 0, 1)`, which the mode then rounds.
    public enum FillMode: String, Sendable, Hashable, CaseIterable {
        /// Whole stars only: the level rounds to 0 or 1, halves up (2.5 shows 3 stars).
        case full
        /// Whole and half stars: the level rounds to the nearest 0, ½ or 1, quarters up.
        case half
        /// The exact fraction of the star's width.
        case precise

        /// The fill level, in [0, 1], of a star whose unrounded level is `level`.
        package func rounded(_ level: Double) -> Double {
            let clamped = min(max(level, 0), 1)
            switch self {
            case .full: return clamped.rounded(.toNearestOrAwayFromZero)
            case .half: return (clamped * 2).rounded(.toNearestOrAwayFromZero) / 2
            case .precise: return clamped
            }
        }
    }
}
