/// What a batch makes of the twins of one shot: sources in one folder with one name and different
/// extensions, as cameras write them (`IMG_0001.CR2` beside `IMG_0001.JPG`) and phones export
/// them (`IMG_0001.HEIC` beside `IMG_0001.JPG`). Without a choice they would map to one output.
///
/// The family of a twin is decided by its extension, not its content: a RAW file's content is
/// what its maker chose (many are TIFF inside, some carry a JPEG first), while the extension is
/// what the camera and the user mean by "the RAW".
package enum SourcePairing: String, Sendable, Equatable, CaseIterable {
    /// One thumbnail per shot, from its JPEG (else its HEIF, else its RAW): the camera's own
    /// rendering, and the quickest to decode. The default.
    case preferJPEG = "prefer-jpeg"
    /// One thumbnail per shot, from its RAW (else its HEIF, else its JPEG).
    case preferRaw = "prefer-raw"
    /// Every twin gets its outputs; names must tell them apart (`%e`, the source's extension).
    case both

    /// The families a shot's files come in, by extension.
    enum Family: Equatable {
        case jpeg, heif, raw, other
    }

    /// Camera RAW extensions, lowercased: the ones `ImageFormat.raw` reads files by.
    static let rawExtensions = Set(ImageFormat.raw.facts.extensions)
    static let jpegExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif"]
    static let heifExtensions: Set<String> = ["heic", "heif", "hif"]

    /// The family a file name's extension (any case) puts it in.
    static func family(ofName name: [UInt8]) -> Family {
        let ext = String(decoding: OutputNaming.fileExtension(name), as: UTF8.self).lowercased()
        if jpegExtensions.contains(ext) { return .jpeg }
        if heifExtensions.contains(ext) { return .heif }
        if rawExtensions.contains(ext) { return .raw }
        return .other
    }

    /// How much this choice wants a family kept: lower is preferred; nil for a file no camera
    /// writes, which makes its set a collision rather than a shot.
    func rank(_ family: Family) -> Int? {
        switch (self, family) {
        case (.both, _), (_, .other): return nil
        case (.preferJPEG, .jpeg), (.preferRaw, .raw): return 0
        case (_, .heif): return 1
        case (.preferJPEG, .raw), (.preferRaw, .jpeg): return 2
        default: return nil
        }
    }

    /// The twins among sources given by their paths below their input (or base): for each index of
    /// a source left out, the index of the one kept in its place. A set of same-named sources is
    /// resolved only when every one of them is a camera's (JPEG, HEIF, RAW) and exactly one has
    /// the best rank; otherwise (two JPEGs, a PNG beside a JPEG, `both`) all stay, and their
    /// outputs collide unless the names tell them apart: a site's `logo.png` never silently
    /// gives way to its `logo.jpg`.
    func twins(_ relatives: [FilePath]) -> [Int: Int] {
        guard self != .both else { return [:] }
        var shots: [[UInt8]: [Int]] = [:]
        for (index, relative) in relatives.enumerated() {
            // The folder and the stem: what the output name is made of.
            let key = relative.directory.bytes + [0] + OutputNaming.stem(relative.lastComponent.bytes)
            shots[key, default: []].append(index)
        }
        // Each shot is decided on its own, so the order they are visited in does not matter.
        var twins: [Int: Int] = [:]
        for members in shots.values where members.count > 1 {
            let ranked = members.compactMap { index in rank(Self.family(ofName: relatives[index].lastComponent.bytes)).map { (index, $0) } }
            guard ranked.count == members.count, let best = ranked.map(\.1).min(), ranked.filter({ $0.1 == best }).count == 1 else { continue }
            let kept = ranked.first { $0.1 == best }!.0
            for index in members where index != kept { twins[index] = kept }
        }
        return twins
    }

    /// Why a twin left out is skipped, naming the file used in its place (the batch's and the
    /// sheet's one wording).
    static func leftOutReason(kept: FilePath) -> String {
        "a twin of \(kept.lastComponent), which is used instead"
    }
}
