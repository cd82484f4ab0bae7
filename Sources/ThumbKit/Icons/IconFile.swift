/// One file of an icon set, named and described before anything is drawn.
package struct IconFile: Sendable, Hashable {
    /// The path below the set's output folder, `/`-separated (`web/favicon.ico`).
    package let path: String
    /// What goes into it.
    package let content: Content

    /// What a file holds.
    package enum Content: Sendable, Hashable {
        /// One picture as a PNG, stored as `storage` says.
        case png(IconPicture, storage: IconPNGStorage)
        /// A Windows icon: the pictures in order, those of at least `pngFrom` pixels stored as PNG,
        /// the others as 32-bit BMP with an AND mask.
        case ico([IconPicture], pngFrom: Int)
        /// An Apple icon file: each picture as a PNG under its OSType (`ic10`).
        case icns([ICNSEntry])
        /// Text made while planning: `Contents.json`, Android XML, icons.html.
        case text([UInt8], format: String)
        /// site.webmanifest: these icons, merged into the file already there when it is a JSON
        /// object (its other members kept), else a new manifest.
        case webManifest([WebManifestIcon])
    }

    /// The manifest's `format` for the file: png, ico, icns, json, xml, html or webmanifest.
    package var format: String {
        switch content {
        case .png: return "png"
        case .ico: return "ico"
        case .icns: return "icns"
        case .text(_, let format): return format
        case .webManifest: return "webmanifest"
        }
    }

    /// Every picture the file holds, in order.
    var pictures: [IconPicture] {
        switch content {
        case .png(let picture, _): return [picture]
        case .ico(let pictures, _): return pictures
        case .icns(let entries): return entries.map(\.picture)
        case .text, .webManifest: return []
        }
    }
}

/// One entry of an `.icns` file.
package struct ICNSEntry: Sendable, Hashable {
    /// The four-character OSType (`icp4`, `ic10`).
    package let type: String
    package let picture: IconPicture
}

/// One icon of a site.webmanifest's `icons` list.
package struct WebManifestIcon: Sendable, Hashable {
    /// The URL, `webPrefix` + file name.
    package let src: String
    /// Pixels a side.
    package let size: Int
    /// `any` or `maskable`.
    package let purpose: String
}

/// A square picture: what is drawn, and how many pixels a side.
package struct IconPicture: Sendable, Hashable {
    package let size: Int
    package let look: IconLook
}

/// How a picture is composed from the art.
package enum IconLook: Sendable, Hashable {
    /// The art fitted in the square less the padding; with `opaque`, on the icon background.
    case art(IconArtRole, opaque: Bool)
    /// macOS 11's grid: the art on the 824/1024 body with continuous corners and a shadow.
    case macGrid
    /// Android's legacy launcher icon: the art on the icon background, cut to a rounded square
    /// (or a circle, `round`) 2 dp inside the 48 dp icon.
    case androidLegacy(round: Bool)
    /// One layer of Android's adaptive icon (108 dp, the 66 dp safe circle in the middle).
    case adaptive(AdaptiveLayer)
    /// The Play Store icon: the adaptive icon's visible 72 dp, full bleed and opaque.
    case playStore
    /// A maskable web icon: the art inside the circle of radius 0.4 on the icon background, or
    /// the `--maskable` source full bleed.
    case maskable

    /// The layers of an adaptive icon.
    package enum AdaptiveLayer: String, Sendable, Hashable {
        case foreground, background, monochrome
    }
}

/// Which art a picture is drawn from.
package enum IconArtRole: String, Sendable, Hashable {
    /// The master (or a size source at small sizes).
    case light
    /// `--dark`.
    case dark
    /// `--tinted`, or the master in grey.
    case tinted
}

/// How a PNG of an icon set stores its pixels.
package enum IconPNGStorage: Sendable, Hashable {
    /// The smallest lossless colour type (thumbgen's default).
    case smallest
    /// Colour type 2, 8-bit RGB: no alpha channel and no tRNS chunk, as App Store Connect requires
    /// of the iOS icons (ITMS-90717); the picture is opaque.
    case rgb
    /// Colour type 6, 8-bit RGBA: the "32-bit PNG" Google Play asks for.
    case rgba
}
