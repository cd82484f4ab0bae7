/// Renders one source into its outputs: one `RenderedOutput` per variant of each request (every
/// output of the request's set when it names none).
///
/// Called concurrently from several worker threads, hence `@Sendable`; it must be deterministic
/// (same bytes and settings → same outputs) for incremental runs and `check` to mean anything.
/// A thrown error fails this source only; `ThumbKitError`s show their `message`, other errors
/// their description.
package typealias BatchRenderer = @Sendable (BatchSource) throws -> BatchRendering

/// thumbgen's own renderer: every request of a source through `Thumbnailer`, requests that decode
/// alike (rotation, colour handling, shrink-on-load, limits) from one decode.
package enum ThumbnailRenderer {
    /// Renders the requests; `limits` and `allowPartial` apply to every set (the recorded
    /// settings of `check` carry neither).
    package static func render(_ source: BatchSource, limits: DecodeLimits, allowPartial: Bool) throws(ThumbnailError) -> BatchRendering {
        var sets = source.requests.map(\.thumbnailSet)
        for i in sets.indices {
            sets[i].options.limits = limits
            sets[i].options.allowPartial = allowPartial
        }
        // Requests that decode alike, in order of first appearance; icon sets are not thumbnails
        // (`IconBatchRenderer` makes them).
        var groups: [[Int]] = []
        for index in sets.indices where source.requests[index].iconSet == nil {
            if let at = groups.firstIndex(where: { sets[$0[0]].options.decodesAlike(sets[index].options) }) {
                groups[at].append(index)
            } else {
                groups.append([index])
            }
        }
        let external = source.externalRating
        var outputs: [RenderedOutput] = []
        var warnings = external?.warnings ?? []
        for group in groups {
            let pictures = try Thumbnailer.pictures(of: source.image, sets: group.map { sets[$0] }, rating: external?.rating)
            for (request, made) in zip(group, pictures) {
                let options = sets[request].options
                // No variants named: every output of the set (a source whose size was not known).
                let wanted = source.requests[request].variants.isEmpty ? made.map(\.variant) : source.requests[request].variants
                for variant in wanted {
                    guard let picture = made.first(where: { $0.variant == variant })
                            ?? made.first(where: { $0.variant.width == variant.width && $0.variant.scale == variant.scale
                                                   && $0.variant.format.name == variant.format.name }) else {
                        throw .missingVariant(variant)
                    }
                    let thumbnail = try Thumbnailer.encode(picture, options: options)
                    var output = RenderedOutput(request: request, variant: variant, image: thumbnail.image, bytes: thumbnail.bytes)
                    if !picture.placeholders.isEmpty { output.placeholders = picture.placeholders }
                    if options.ratingBadge != nil {
                        let origin = external?.rating != nil ? external?.origin : thumbnail.ratingOrigin
                        output.rating = RecordedRating(rating: thumbnail.rating, origin: origin)
                    }
                    if !source.requests[request].thumbnailSet.widths.isEmpty {
                        (output.sourceWidth, output.sourceHeight) = (picture.sourceWidth, picture.sourceHeight)
                    }
                    outputs.append(output)
                }
                for warning in made.first?.warnings ?? [] where !warnings.contains(warning) { warnings.append(warning) }
            }
        }
        return BatchRendering(outputs: outputs, warnings: warnings)
    }
}
