/// Makes the files of an icon set from a master image: decodes the master and every stand-in
/// once, draws each picture once however many files hold it, and encodes each file.
///
/// Pictures are drawn at their own size from the full-size art (never from a larger picture), in
/// linear light with premultiplied alpha, with thumbgen's Lanczos-3 resampler and exact-area
/// shapes; the same master and set give the same bytes.
public struct IconRenderer: Sendable {
    /// What to make.
    public let set: IconSet

    public init(set: IconSet) {
        self.set = set
    }

    /// Every file of the set, in `set.files` order, and the problems that did not stop it (a colour
    /// profile that could not be used, say). `existing` reads a file already in the output folder
    /// (by its path below it; nil when there is none), for the site.webmanifest the icons are
    /// merged into.
    package func render(master: ImageSource, existing: (String) -> Result<[UInt8]?, SystemFailure> = { _ in .success(nil) })
        throws(IconError) -> (files: [RenderedIconFile], warnings: [String]) {
        let painter = IconPainter(set: set, master: master)
        var files: [RenderedIconFile] = []
        for file in set.files {
            files.append(try render(file, painter: painter, existing: existing))
        }
        return (files, painter.warnings)
    }

    private func render(_ file: IconFile, painter: IconPainter,
                        existing: (String) -> Result<[UInt8]?, SystemFailure>) throws(IconError) -> RenderedIconFile {
        func made(_ bytes: [UInt8], _ pictures: [Image]) -> RenderedIconFile {
            let largest = pictures.max { $0.width < $1.width }
            return RenderedIconFile(path: file.path, format: file.format, bytes: bytes, width: largest?.width ?? 0,
                                    height: largest?.height ?? 0,
                                    pixelSHA256: pictures.isEmpty ? SHA256.hex(bytes) : SHA256.hex(pictures.flatMap(\.rgba8)))
        }
        switch file.content {
        case .png(let picture, let storage):
            if storage == .rgb, file.path.hasPrefix(AppleIconFiles.iosFolder), set.iconBackground == nil,
               case .art(let role, true) = picture.look {
                // Flattening onto white would hide the mistake: the art itself must be opaque.
                let unflattened = try painter.picture(IconPicture(size: picture.size, look: .art(role, opaque: false)))
                guard PixelTraits(rgba8: unflattened.rgba8).isOpaque else { throw .transparentIOSIcon(file: file.path) }
            }
            let image = try painter.picture(picture)
            return made(try Self.png(image, storage: storage), [image])
        case .ico(let pictures, let pngFrom):
            var entries: [ICOEncoder.Entry] = []
            var images: [Image] = []
            for picture in pictures {
                let image = try painter.picture(picture)
                images.append(image)
                entries.append(ICOEncoder.Entry(image: image, png: picture.size >= pngFrom ? try Self.png(image, storage: .rgba) : nil))
            }
            return made(ICOEncoder.encode(entries), images)
        case .icns(let entries):
            var data: [(type: String, data: [UInt8])] = []
            var images: [Image] = []
            for entry in entries {
                let image = try painter.picture(entry.picture)
                images.append(image)
                data.append((entry.type, try Self.png(image, storage: .rgba)))
            }
            return made(ICNSEncoder.encode(data), images)
        case .text(let bytes, _):
            return made(bytes, [])
        case .webManifest(let icons):
            let current: [UInt8]?
            switch existing(file.path) {
            case .success(let bytes): current = bytes
            case .failure(let failure): throw .webManifest(file: file.path, reason: "cannot read it: \(failure.reason)")
            }
            do {
                return made(try WebManifest.bytes(icons: icons, existing: current, set: set), [])
            } catch {
                throw .webManifest(file: file.path, reason: error.reason)
            }
        }
    }

    /// A picture's PNG, marked sRGB.
    static func png(_ image: Image, storage: IconPNGStorage) throws(IconError) -> [UInt8] {
        do {
            switch storage {
            case .smallest: return try PNGEncoder(marksSRGB: true).encode(image)
            case .rgba: return try PNGEncoder(colorType: .rgba, marksSRGB: true).encode(image)
            case .rgb:
                let rgba = image.rgba8
                precondition(PixelTraits(rgba8: rgba).isOpaque, "an RGB icon is opaque")
                var samples = [UInt8]()
                samples.reserveCapacity(image.width * image.height * 3)
                for i in stride(from: 0, to: rgba.count, by: 4) { samples += [rgba[i], rgba[i + 1], rgba[i + 2]] }
                let layout = PNGLayout(colorType: .rgb, bitDepth: 8, samples: samples, samplesPerPixel: 3, palette: [], transparency: [])
                return try PNGEncoder(marksSRGB: true).encode(layout, width: image.width, height: image.height)
            }
        } catch {
            throw .encode(error)
        }
    }
}
