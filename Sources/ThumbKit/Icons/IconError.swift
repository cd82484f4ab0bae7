/// Why an icon set could not be made.
public enum IconError: ThumbKitError, Equatable {
    /// The master (`source` nil) or an extra source could not be decoded.
    case decode(source: String?, DecodeError)
    /// A picture could not be encoded.
    case encode(EncodeError)
    /// The art is entirely transparent, so there is nothing to fit (`fitContent`).
    case noVisiblePixels(source: String?)
    /// An iOS app icon would have transparent pixels and the set has no icon background to draw
    /// it on: App Store Connect rejects an app icon with an alpha channel (ITMS-90717).
    case transparentIOSIcon(file: String)
    /// The site.webmanifest already there cannot take the icons.
    case webManifest(file: String, reason: String)

    /// One line, lower-case, naming no option.
    public var message: String {
        switch self {
        case .decode(let source, let error): return (source.map { "\($0): " } ?? "") + error.message
        case .encode(let error): return error.message
        case .noVisiblePixels(let source): return (source.map { "\($0): " } ?? "") + "has no visible pixels to fit"
        case .transparentIOSIcon(let file):
            return "\(file) would have transparent pixels, and App Store Connect rejects an app icon with an alpha channel "
                + "(ITMS-90717): give the icons a background to be drawn on"
        case .webManifest(let file, let reason): return "\(file): \(reason)"
        }
    }

    /// The limit behind the failure, if a limit was hit (so a caller can name its own option).
    public var exceededLimit: LimitExceeded? {
        if case .decode(_, .limitExceeded(let limit)) = self { return limit }
        return nil
    }
}
