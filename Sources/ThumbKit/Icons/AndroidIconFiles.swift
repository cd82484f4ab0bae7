/// The Android files of an icon set: launcher icons per density, the adaptive icon's layers and
/// XML, and the Play Store icon.
enum AndroidIconFiles {
    static let folder = "android/res/"

    /// Densities and their scale from mdpi (1 dp = 1 px).
    static let densities: [(name: String, eighths: Int)] = [
        ("mdpi", 8), ("hdpi", 12), ("xhdpi", 16), ("xxhdpi", 24), ("xxxhdpi", 32),
    ]

    /// The legacy launcher icon, in dp.
    static let legacyDP = 48
    /// The adaptive icon's layers, in dp (of which launchers show the middle 72, and promise the
    /// middle 66, the safe zone, whatever their mask).
    static let adaptiveDP = 108
    static let safeZoneDP = 66.0
    static let visibleDP = 72.0

    /// The colour resource's name, shared by the XML that refers to it.
    static let backgroundColorName = "ic_launcher_background"

    static func files(_ set: IconSet) -> [IconFile] {
        let backgroundPicture = set.sources[.background] != nil
        var files: [IconFile] = []
        for density in densities {
            let dir = folder + "mipmap-\(density.name)/"
            let legacy = legacyDP * density.eighths / 8, adaptive = adaptiveDP * density.eighths / 8
            files.append(IconFile(path: dir + "ic_launcher.png",
                                  content: .png(IconPicture(size: legacy, look: .androidLegacy(round: false)), storage: .smallest)))
            files.append(IconFile(path: dir + "ic_launcher_round.png",
                                  content: .png(IconPicture(size: legacy, look: .androidLegacy(round: true)), storage: .smallest)))
            var layers: [IconLook.AdaptiveLayer] = [.foreground, .monochrome]
            if backgroundPicture { layers.insert(.background, at: 1) }
            for layer in layers {
                files.append(IconFile(path: dir + "ic_launcher_\(layer.rawValue).png",
                                      content: .png(IconPicture(size: adaptive, look: .adaptive(layer)), storage: .smallest)))
            }
        }
        let xml = Array(adaptiveIconXML(backgroundPicture: backgroundPicture).utf8)
        files.append(IconFile(path: folder + "mipmap-anydpi-v26/ic_launcher.xml", content: .text(xml, format: "xml")))
        files.append(IconFile(path: folder + "mipmap-anydpi-v26/ic_launcher_round.xml", content: .text(xml, format: "xml")))
        if !backgroundPicture {
            let color = set.androidBackgroundColor ?? set.iconBackground ?? .white
            files.append(IconFile(path: folder + "values/ic_launcher_background.xml",
                                  content: .text(Array(colorResourceXML(color).utf8), format: "xml")))
        }
        // Google Play asks for a 512×512 32-bit PNG; it rounds the corners itself.
        files.append(IconFile(path: "android/playstore-icon.png",
                              content: .png(IconPicture(size: 512, look: .playStore), storage: .rgba)))
        return files
    }

    /// `mipmap-anydpi-v26/ic_launcher.xml`: the adaptive icon (Android 8) with its monochrome
    /// layer (Android 13's themed icons; older versions ignore the element).
    static func adaptiveIconXML(backgroundPicture: Bool) -> String {
        let background = backgroundPicture ? "@mipmap/ic_launcher_background" : "@color/\(backgroundColorName)"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
                <background android:drawable="\(background)"/>
                <foreground android:drawable="@mipmap/ic_launcher_foreground"/>
                <monochrome android:drawable="@mipmap/ic_launcher_monochrome"/>
            </adaptive-icon>

            """
    }

    /// `values/ic_launcher_background.xml`: the background colour as a resource.
    static func colorResourceXML(_ color: Color) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <resources>
            <color name="\(backgroundColorName)">#\(color.description.uppercased())</color>
        </resources>

        """
    }
}
