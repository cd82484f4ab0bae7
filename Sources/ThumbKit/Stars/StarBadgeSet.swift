/// A validated set of badges — one per rating, each at every scale of the spec — ready to render.
///
/// `render()` draws and encodes every PNG once; the files, the asset catalog and the manifest are
/// then all written from those bytes (`StarBadgeFiles`). Output order is ratings in spec order,
/// then scales in spec order.
package struct StarBadgeSet: Sendable {
    /// The spec this set was made from.
    package let spec: StarBadgeSpec
    /// One validated badge per rating, in spec order.
    package let badges: [StarBadge]

    /// Validates every setting of `spec`, and that no two files get the same name; errors name
    /// the offending option.
    package init(spec: StarBadgeSpec) throws(StarBadgeError) {
        let ratings = spec.effectiveRatings
        if spec.scales.isEmpty { throw .invalidScale(text: "") }
        // The spec's fields are settable, so its scales need not have come through `parseScales`.
        for (index, scale) in spec.scales.enumerated() {
            guard StarBadge.scaleRange.contains(scale) else { throw .invalidScale(text: String(scale)) }
            guard !spec.scales[..<index].contains(scale) else { throw .repeatedScale(scale) }
        }
        if ratings.isEmpty { throw .malformedRating(text: "") }
        var badges: [StarBadge] = []
        for rating in ratings { badges.append(try spec.badge(rating: rating)) }
        // File names, not just base names: the manifest is keyed by file name. Two ratings with
        // one base name (a format without %r) collide at every scale, so this covers image sets.
        var seen: Set<String> = []
        for rating in ratings {
            for scale in spec.scales {
                let name = spec.nameFormat.fileName(rating: rating, scale: scale)
                guard seen.insert(name).inserted else {
                    throw .invalidNameFormat(format: spec.nameFormat.format,
                                             reason: "gives '\(name)' for two ratings (add %r)")
                }
            }
        }
        self.spec = spec
        self.badges = badges
    }

    /// Renders and encodes every badge at every scale, each exactly once. PNGs are 8-bit sRGB from
    /// `PNGEncoder()` (smallest lossless colour type, deterministic), so the same spec gives the
    /// same bytes on every machine with the same libdeflate; pixel content is identical everywhere.
    package func render() throws(StarBadgeError) -> StarBadgeFiles {
        var files: [StarBadgeFiles.File] = []
        for badge in badges {
            for scale in spec.scales {
                let bytes: [UInt8]
                let bitmap = try badge.render(scale: scale)
                do { bytes = try PNGEncoder().encode(Image(bitmap)) } catch { throw .encoding(error) }
                files.append(StarBadgeFiles.File(name: spec.nameFormat.fileName(rating: badge.rating, scale: scale),
                                                 baseName: spec.nameFormat.baseName(rating: badge.rating),
                                                 rating: badge.rating, scale: scale, bytes: bytes))
            }
        }
        return StarBadgeFiles(files: files)
    }
}
