extension ThumbnailSize {
    /// A thumbnail size string that is not `N`, `WxH` or `WxH` followed by `>`, `<`, `!` or `^`.
    public struct ParseError: ThumbKitError, Equatable {
        /// The text as given.
        public let text: String
        /// What is wrong with it.
        public let reason: String

        /// "'TEXT' is not a thumbnail size: REASON".
        public var message: String { "'\(text)' is not a thumbnail size: \(reason)" }
    }
}
