/// Where a `cover` crop is taken from the source, or where a `contain` image sits on its canvas.
/// Compass directions name the edge or corner kept; `centre` is the default.
public enum Gravity: String, Sendable, Hashable, CaseIterable {
    case centre
    case north
    case south
    case east
    case west
    case northEast = "northeast"
    case northWest = "northwest"
    case southEast = "southeast"
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
