import Foundation

/// The images ThumbgenPlugin generates into this target's resources: 40×40 rounded thumbnails of
/// the photos in `Photos/` and the star badges `1StarSmall` … `5StarsSmall`, each at @1x, @2x and
/// @3x (see `thumbgen.json`).
public enum RatingsImages {
    /// The photos' names (their file names without extension), sorted.
    public static let photoNames = ["dune", "fresh-flower", "ladybird"]

    /// The scales every image comes in.
    public static let scales = [1, 2, 3]

    /// The badge name for a rating 1…5: `1StarSmall`, `2StarsSmall`, …
    public static func badgeName(rating: Int) -> String {
        "\(rating)Star\(rating == 1 ? "" : "s")Small"
    }

    /// The generated PNG `name` at `scale` (`dune@2x.png`), or nil if the bundle lacks it.
    public static func url(named name: String, scale: Int = 1) -> URL? {
        Bundle.module.url(forResource: name + (scale == 1 ? "" : "@\(scale)x"), withExtension: "png")
    }

    /// The folder holding every generated resource.
    public static var resourceFolder: URL? { Bundle.module.resourceURL }
}
