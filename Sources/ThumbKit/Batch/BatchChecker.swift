/// Verifies outputs against their manifests: each output file on disk, and a fresh rendering of
/// its source made in memory with the injected renderer.
///
/// File and pixel hashes are reported separately because they mean different things. The pixel
/// hash (SHA-256 of decoded RGBA8) depends only on what the renderer computed, so it survives a
/// zlib or libpng upgrade; the file hash also depends on how the encoder compresses, so a library
/// upgrade alone can change it. A regenerated file-hash mismatch with matching pixels is an
/// encoder change; a pixel mismatch is a rendering change.
package struct BatchChecker: Sendable {
    package let renderer: BatchRenderer
    /// The current settings; entries recorded with others are reported as `settingsDiffer`
    /// instead of being regenerated. Nil to regenerate each entry with its recorded settings
    /// (handed to the renderer in `BatchSource.settings`).
    package let settings: String?
    /// Worker threads. The report does not depend on it.
    package let jobs: Int

    package init(renderer: @escaping BatchRenderer, settings: String? = nil, jobs: Int = BatchConfiguration.defaultJobs) {
        self.renderer = renderer
        self.settings = settings
        self.jobs = max(1, jobs)
    }

    /// Checks every output listed in the manifests (e.g. all `thumbgen-manifest.K-of-N.json` of
    /// a sharded batch). Output and source paths are resolved against each manifest's folder.
    /// Throws only when a manifest cannot be read.
    package func check(manifestPaths: [FilePath]) throws(BatchError) -> CheckReport {
        // One group per source, so each source is read once and each of its sets rendered once.
        var groups: [(directory: FilePath, source: FilePath, entries: [ManifestEntry])] = []
        var seenOutputs: Set<FilePath> = []
        for path in manifestPaths {
            let manifest = try Manifest.load(path: path)
            let directory = path.directory
            var indexBySource: [FilePath: Int] = [:]
            for entry in manifest.sortedEntries {
                let full = directory.resolving(entry.output)
                guard seenOutputs.insert(full).inserted else { continue }
                if let index = indexBySource[entry.source] {
                    groups[index].entries.append(entry)
                } else {
                    indexBySource[entry.source] = groups.count
                    groups.append((directory, directory.resolving(entry.source), [entry]))
                }
            }
        }
        // Rendered on the batch's worker threads, with the same stacks; results in group order.
        let mismatches = WorkerPool.map(groups, threads: jobs, stackSize: WorkerPool.renderStackSize) { group in
            check(group.entries, directory: group.directory, source: group.source)
        }
        return CheckReport(checked: seenOutputs.count, mismatches: mismatches.flatMap { $0 })
    }

    private func check(_ entries: [ManifestEntry], directory: FilePath, source: FilePath) -> [CheckMismatch] {
        var mismatches: [(index: Int, CheckMismatch)] = []
        func report(_ index: Int, _ kind: CheckMismatch.Kind) {
            mismatches.append((index, CheckMismatch(output: directory.resolving(entries[index].output).description, kind: kind)))
        }
        // The files on disk.
        for (index, entry) in entries.enumerated() {
            switch FileSystem.read(directory.resolving(entry.output)) {
            case .failure(let f):
                report(index, .outputUnreadable(reason: f.reason))
            case .success(let bytes):
                let fileHash = SHA256.hex(bytes)
                if fileHash != entry.fileSHA256 { report(index, .fileHashOnDisk(expected: entry.fileSHA256, actual: fileHash)) }
                checkDecoded(bytes, entry) { report(index, $0) }
            }
        }
        // A fresh rendering, for entries made with the current settings: one request per set of
        // settings the source's entries were made with.
        var toRender: [Int] = []
        for (index, entry) in entries.enumerated() {
            if let current = settings, current != entry.settings {
                report(index, .settingsDiffer(recorded: entry.settings, current: current))
            } else {
                toRender.append(index)
            }
        }
        guard !toRender.isEmpty else { return ordered(mismatches) }
        var requestSettings: [String] = []
        for index in toRender where !requestSettings.contains(entries[index].settings) { requestSettings.append(entries[index].settings) }
        let requests = requestSettings.map { recorded in
            let mine = toRender.filter { entries[$0].settings == recorded }
            let variants = mine.map { index in
                let entry = entries[index]
                return ThumbnailVariant(width: entry.variantWidth, scale: entry.scale, format: OutputFormat(name: entry.format) ?? .png)
            }
            if IconSet.describes(recorded) {
                // An icon set is made whole; its folder is where the entry's file lies, less the
                // file's own path below it.
                var request = BatchSource.Request(thumbnailSet: ThumbnailSet(options: ThumbnailOptions()), settings: recorded, variants: [])
                request.iconSet = try? IconSet(canonicalDescription: recorded, relativeTo: directory)
                if let entry = mine.lazy.map({ entries[$0] }).first(where: { $0.iconFile != nil }), let file = entry.iconFile {
                    let output = directory.resolving(entry.output).bytes
                    request.iconOutputDirectory = FilePath(Array(output.dropLast(file.utf8.count)))
                }
                return request
            }
            // thumbgen's own settings rebuild the set; another renderer's are its own business.
            let set = (try? ThumbnailSet(canonicalDescription: recorded)) ?? ThumbnailSet(options: ThumbnailOptions())
            return BatchSource.Request(thumbnailSet: set, settings: recorded, variants: variants)
        }
        let rendering: BatchRendering
        // The image source reads through the open file, which it keeps open.
        switch SourceFile.open(source).map(ImageSource.file(opened:)) {
        case .failure(let f):
            for index in toRender { report(index, .regenerationFailed(reason: "cannot read source \(source): \(f.reason)")) }
            return ordered(mismatches)
        case .success(let image):
            do {
                // A rating recorded from outside the file is given again, as the run gave it; one
                // read from the file is read from it again.
                let recorded = entries[toRender[0]].rating
                let external = recorded.map { RatingLookup(rating: $0.isExternal ? $0.rating : nil, origin: $0.isExternal ? $0.origin : nil) }
                rendering = try renderer(BatchSource(path: source, image: image, requests: requests, externalRating: external))
            } catch {
                let reason = (error as? any ThumbKitError)?.message ?? String(describing: error)
                for index in toRender { report(index, .regenerationFailed(reason: reason)) }
                return ordered(mismatches)
            }
        }
        for index in toRender {
            let entry = entries[index]
            let request = requestSettings.firstIndex(of: entry.settings)!
            guard let output = rendering.outputs.first(where: { $0.request == request && entry.matches($0) }) else {
                report(index, .regenerationFailed(reason: "renderer gave no output at scale \(entry.scale)"))
                continue
            }
            if output.width != entry.width || output.height != entry.height {
                report(index, .sizeRegenerated(expected: "\(entry.width)x\(entry.height)", actual: "\(output.width)x\(output.height)"))
            }
            let fileHash = SHA256.hex(output.bytes)
            if fileHash != entry.fileSHA256 { report(index, .fileHashRegenerated(expected: entry.fileSHA256, actual: fileHash)) }
            if output.rating != entry.rating {
                report(index, .ratingRegenerated(expected: entry.rating?.rating?.description ?? "none",
                                                 actual: output.rating?.rating?.description ?? "none"))
            }
            if output.pixelSHA256 != entry.pixelSHA256 {
                report(index, .pixelHashRegenerated(expected: entry.pixelSHA256, actual: output.pixelSHA256))
            }
        }
        return ordered(mismatches)
    }

    /// The file on disk decodes, at the recorded size, and a losslessly stored one (PNG, lossless
    /// WebP) to the recorded pixels. A lossy file only approximates the pixels that were encoded,
    /// so its file hash is what vouches for it.
    private func checkDecoded(_ bytes: [UInt8], _ entry: ManifestEntry, report: (CheckMismatch.Kind) -> Void) {
        // Icon containers and text are vouched for by their file hash.
        guard OutputFormat(name: entry.format) != nil else { return }
        do {
            let decoder = try ImageSource.bytes(bytes).openDecoder(limits: .default)
            let lossless: Bool
            switch decoder.header.details {
            case .png: lossless = true
            case .webp(let isLossless, _): lossless = isLossless
            default: lossless = false
            }
            try decoder.start(DecodeRequest())
            guard case .rgba(let image) = try decoder.decodeImage() else {
                return report(.outputUnreadable(reason: "the output holds ink (CMYK) samples"))
            }
            if image.width != entry.width || image.height != entry.height {
                report(.sizeOnDisk(expected: "\(entry.width)x\(entry.height)", actual: "\(image.width)x\(image.height)"))
            } else if lossless {
                let pixelHash = SHA256.hex(image.rgba8)
                if pixelHash != entry.pixelSHA256 { report(.pixelHashOnDisk(expected: entry.pixelSHA256, actual: pixelHash)) }
            }
        } catch {
            report(.outputUnreadable(reason: error.message))
        }
    }

    /// Mismatches grouped by output, in entry order, so the report is stable.
    private func ordered(_ mismatches: [(index: Int, CheckMismatch)]) -> [CheckMismatch] {
        mismatches.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element.1)
    }
}
