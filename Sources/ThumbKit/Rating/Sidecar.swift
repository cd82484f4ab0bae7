/// An XMP sidecar: the `.xmp` file photo managers write beside a photo instead of (or as well as)
/// changing it. Two names are in use: `photo.jpg.xmp` (darktable, digiKam) and `photo.xmp`
/// (Lightroom, Capture One, Bridge). The first of those that exists is the photo's sidecar and the
/// other is not read, so one file decides (darktable's name first: it cannot belong to another
/// photo, while `photo.xmp` is shared by `photo.jpg` and `photo.cr2`). Names are matched exactly
/// (`.xmp` in lower case).
enum Sidecar {
    /// The sidecar names for a photo, in the order they are tried.
    static func candidates(forSourceAt path: String) -> [String] {
        var names = [path + ".xmp"]
        let slash = path.lastIndex(of: "/")
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        // Only a name with an extension (not a leading-dot name) has a second form.
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            names.append(String(path[..<dot]) + ".xmp")
        }
        return names
    }

    /// The rating in the photo's sidecar, with a warning for a sidecar that cannot be used.
    static func lookup(forSourceAt path: String) -> RatingLookup {
        for candidate in candidates(forSourceAt: path) {
            let label = "sidecar \(PathEscaping.escape(candidate))"
            switch FileSystem.readSmallFile(FilePath(candidate), maxBytes: XMPReader.maximumBytes) {
            case .success(.absent):
                continue
            case .failure(let failure):
                return RatingLookup(warnings: ["\(label): cannot read: \(failure.reason); rating ignored"])
            case .success(.tooLarge(let size)):
                return RatingLookup(warnings: ["\(label): \(size) bytes is above the limit of \(XMPReader.maximumBytes); rating ignored"])
            case .success(.bytes(let bytes)):
                do throws(XMPProblem) {
                    guard let rating = try XMPReader.rating(in: bytes) else { return RatingLookup() }
                    return RatingLookup(rating: rating, origin: .sidecar)
                } catch {
                    return RatingLookup(warnings: ["\(label): \(error); rating ignored"])
                }
            }
        }
        return RatingLookup()
    }
}
