import Foundation

/// The images ThumbgenPlugin generates into this target's resources: 40×40 rounded thumbnails of
/// the photos in `Photos/` and the star badges `1StarSmall` … `5StarsSmall`, each at @1x, @2x and
/// @3x, and the app icon's PNGs (see `thumbgen.json`).
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

    /// The app icon's PNGs from `Icon/icon.png` (the `icons` group), by their paths in the icon
    /// set with `/` as `-` (resources are flat), and their pixel sizes: iOS's App Store icon and
    /// its tinted appearance, macOS's ten, and the web's six.
    public static let iconPNGs: [(name: String, pixels: Int)] =
        [("ios-AppIcon.appiconset-AppIcon-1024", 1024), ("ios-AppIcon.appiconset-AppIcon-tinted-1024", 1024)]
        + [16, 32, 128, 256, 512].flatMap { points in
            [("macos-AppIcon.appiconset-icon_\(points)x\(points)", points), ("macos-AppIcon.appiconset-icon_\(points)x\(points)@2x", 2 * points)]
        }
        + [("web-favicon-96x96", 96), ("web-apple-touch-icon", 180), ("web-icon-192", 192), ("web-icon-512", 512),
           ("web-icon-maskable-192", 192), ("web-icon-maskable-512", 512)]

    /// A generated icon PNG by its resource name, or nil if the bundle lacks it.
    public static func iconURL(named name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "png")
    }

    /// The folder holding every generated resource.
    public static var resourceFolder: URL? { Bundle.module.resourceURL }
}
