/// The web files of an icon set: favicons, app icons for the web manifest (any and maskable,
/// separately), the manifest itself and the `<link>` tags.
enum WebIconFiles {
    static let folder = "web/"

    /// favicon.ico's entries, largest first: 48 for Windows' site tiles and high-density tabs,
    /// 32 and 16 for tabs and bookmarks.
    static let faviconSizes = [48, 32, 16]

    static func files(_ set: IconSet) -> [IconFile] {
        func art(_ size: Int, opaque: Bool = false) -> IconPicture { IconPicture(size: size, look: .art(.light, opaque: opaque)) }
        var files = [
            IconFile(path: folder + "favicon.ico", content: .ico(faviconSizes.map { art($0) }, pngFrom: Int.max)),
            IconFile(path: folder + "favicon-96x96.png", content: .png(art(96), storage: .smallest)),
            // iOS draws transparency in a home-screen icon black: opaque, on the icon background.
            IconFile(path: folder + "apple-touch-icon.png", content: .png(art(180, opaque: true), storage: .rgb)),
        ]
        var icons: [WebManifestIcon] = []
        for size in [192, 512] {
            files.append(IconFile(path: folder + "icon-\(size).png", content: .png(art(size), storage: .smallest)))
            icons.append(WebManifestIcon(src: set.webPrefix + "icon-\(size).png", size: size, purpose: "any"))
        }
        for size in [192, 512] {
            files.append(IconFile(path: folder + "icon-maskable-\(size).png",
                                  content: .png(IconPicture(size: size, look: .maskable), storage: .smallest)))
            icons.append(WebManifestIcon(src: set.webPrefix + "icon-maskable-\(size).png", size: size, purpose: "maskable"))
        }
        files.append(IconFile(path: folder + "site.webmanifest", content: .webManifest(icons)))
        files.append(IconFile(path: folder + "icons.html", content: .text(Array(linkTags(set).utf8), format: "html")))
        return files
    }

    /// The `<link>` tags for a page's `<head>`.
    static func linkTags(_ set: IconSet) -> String {
        let p = set.webPrefix
        return """
            <link rel="icon" href="\(p)favicon.ico" sizes="48x48 32x32 16x16">
            <link rel="icon" href="\(p)favicon-96x96.png" type="image/png" sizes="96x96">
            <link rel="apple-touch-icon" href="\(p)apple-touch-icon.png" sizes="180x180">
            <link rel="manifest" href="\(p)site.webmanifest">

            """
    }
}
