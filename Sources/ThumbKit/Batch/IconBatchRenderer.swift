import Glibc

/// Renders the icon requests of a source (groups of `thumbgen icons` and a project's `icons`):
/// each set through `IconRenderer`, every file labelled with its path below the set's folder.
package enum IconBatchRenderer {
    /// The outputs of every request that has an icon set; `limits` apply to the master and every
    /// stand-in (the recorded settings of `check` carry none).
    package static func render(_ source: BatchSource, limits: DecodeLimits) throws(IconError) -> BatchRendering {
        var outputs: [RenderedOutput] = []
        var warnings: [String] = []
        for (index, request) in source.requests.enumerated() {
            guard var set = request.iconSet else { continue }
            set.limits = limits
            let folder = request.iconOutputDirectory
            let made = try IconRenderer(set: set).render(master: source.image) { path in
                guard let folder else { return .success(nil) }
                switch FileSystem.read(folder.appending(FilePath(path)), maxBytes: WebManifest.maximumBytes) {
                case .success(let bytes): return .success(bytes)
                case .failure(let failure) where failure == SystemFailure(code: ENOENT): return .success(nil)
                case .failure(let failure): return .failure(failure)
                }
            }
            for file in made.files {
                var output = RenderedOutput(request: index, variant: ThumbnailVariant(), width: file.width, height: file.height,
                                            bytes: file.bytes, pixelSHA256: file.pixelSHA256)
                output.iconFile = file.path
                output.fileFormat = file.format
                outputs.append(output)
            }
            for warning in made.warnings where !warnings.contains(warning) { warnings.append(warning) }
        }
        return BatchRendering(outputs: outputs, warnings: warnings)
    }
}
