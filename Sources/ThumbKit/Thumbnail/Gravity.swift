/// Where a `cover` crop is taken from the source, or where a `contain` image sits on its canvas.
/// Compass directions name the edge or corner kept; `centre` is the default.
public enum Gravity: String, Sendable, Hashable, CaseIterable {
    /// The middle (rounded down to a whole pixel where pixels must be whole).
    case centre
    /// Top edge, horizontally centred.
    case north
    /// Bottom edge, horizontally centred.
    case south
    /// Right edge, vertically centred.
    case east
    /// Left edge, vertically centred.
    case west
    /// Top right corner.
    case northEast = "northeast"
    /// Top left corner.
    case northWest = "northwest"
    /// Bottom right corner.
    case southEast = "southeast"
    /// Bottom left corner.
    case southWest = "southwest"

    /// Parses a gravity name, ignoring case, dashes and underscores; `center` is accepted too.
    public init?(name: String) {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" }
        if key == "center" {
            self = .centre
            return
        }
        guard let gravity = Gravity(rawValue: key) else { return nil }
        self = gravity
    }

    /// Horizontal anchor as a fraction of the free width: 0 left, ½ centre, 1 right.
    var horizontal: (numerator: Int, denominator: Int) {
        switch self {
        case .west, .northWest, .southWest: return (0, 1)
        case .east, .northEast, .southEast: return (1, 1)
        case .centre, .north, .south: return (1, 2)
        }
    }

    /// Vertical anchor as a fraction of the free height: 0 top, ½ centre, 1 bottom.
    var vertical: (numerator: Int, denominator: Int) {
        switch self {
        case .north, .northEast, .northWest: return (0, 1)
        case .south, .southEast, .southWest: return (1, 1)
        case .centre, .east, .west: return (1, 2)
        }
    }
}
