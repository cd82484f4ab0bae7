/// The Windows and Linux files of an icon set.
enum DesktopIconFiles {
    /// app.ico's entries, largest first: PNG from 128 (Windows Vista and later read PNG entries,
    /// and at these sizes they are far smaller), BMP below, which every reader takes.
    static let windowsSizes = [256, 128, 64, 48, 32, 24, 16]
    static let windowsPNGFrom = 128

    /// The hicolor theme's sizes that desktops look up.
    static let linuxSizes = [16, 22, 24, 32, 48, 64, 128, 256, 512]

    static func windows(_ set: IconSet) -> [IconFile] {
        [IconFile(path: "windows/app.ico",
                  content: .ico(windowsSizes.map { IconPicture(size: $0, look: .art(.light, opaque: false)) }, pngFrom: windowsPNGFrom))]
    }

    static func linux(_ set: IconSet) -> [IconFile] {
        linuxSizes.map { size in
            IconFile(path: "linux/hicolor/\(size)x\(size)/apps/\(set.name).png",
                     content: .png(IconPicture(size: size, look: .art(.light, opaque: false)), storage: .smallest))
        }
    }
}
