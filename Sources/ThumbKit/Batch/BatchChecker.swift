/// Verifies outputs against their manifests: a fresh rendering of each output's source made in
/// memory with the injected renderer, and the output file on disk when it is there (the manifest
/// and the sources are enough).
///
/// Each difference is told apart by its cause. A source whose bytes are not the ones recorded
/// (SHA-256) changed since the manifest, so it is not regenerated: the renderer is not to blame.
/// The pixel hash (SHA-256 of the RGBA8 samples) depends only on what the renderer computed, so
/// a new file hash with the same pixels is the encoder's doing (libdeflate, libjpeg-turbo,
/// libwebp); other pixels are measured against the output on disk (differing pixels, maximum
/// difference, PSNR) and accepted within `tolerance`. Either names the library versions that
/// differ from the ones the settings recorded.
package struct BatchChecker: Sendable {
    package let renderer: BatchRenderer
    /// The current settings; entries recorded with others are reported as `settingsDiffer`
    /// instead of being regenerated. Nil to regenerate each entry with its recorded settings
    /// (handed to the renderer in `BatchSource.settings`).
    package let settings: String?
    /// Worker threads. The report does not depend on it.
    package let jobs: Int
    /// Tolerance, diff images and updating.
    package let options: CheckOptions

    package init(renderer: @escaping BatchRenderer, settings: String? = nil, jobs: Int = BatchConfiguration.defaultJobs,
                 options: CheckOptions = CheckOptions()) {
        self.renderer = renderer
        self.settings = settings
        self.jobs = max(1, jobs)
        self.options = options
    }

    /// Checks every output listed in the manifests (e.g. all `thumbgen-manifest.K-of-N.json` of
    /// a sharded batch). Output and source paths are resolved against each manifest's folder.
    /// Throws only when a manifest cannot be read.
    package func check(manifestPaths: [FilePath]) throws(BatchError) -> CheckReport {
        // One group per source, so each source is read once and each of its sets rendered once.
        var groups: [(manifest: Int, directory: FilePath, source: FilePath, entries: [ManifestEntry])] = []
        var seenOutputs: Set<FilePath> = []
        var manifests: [Manifest] = []
        for path in manifestPaths {
            let manifest = try Manifest.load(path: path)
            manifests.append(manifest)
            let directory = path.directory
            var indexBySource: [FilePath: Int] = [:]
            for entry in manifest.sortedEntries {
                let full = directory.resolving(entry.output)
                guard seenOutputs.insert(full).inserted else { continue }
                if let index = indexBySource[entry.source] {
                    groups[index].entries.append(entry)
                } else {
                    indexBySource[entry.source] = groups.count
                    groups.append((manifests.count - 1, directory, directory.resolving(entry.source), [entry]))
                }
            }
        }
        // Rendered on the batch's worker threads, with the same stacks; results in group order.
        let results = WorkerPool.map(groups, threads: jobs, stackSize: WorkerPool.renderStackSize) { group in
            check(group.entries, directory: group.directory, source: group.source)
        }
        var report = CheckReport(checked: seenOutputs.count, mismatches: results.flatMap(\.mismatches))
        report.matches = results.flatMap(\.matches)
        guard options.update else { return report }
        // --update: the regenerated outputs replace the ones that differ, and their entries the
        // manifest's, one manifest at a time.
        var touched: Set<Int> = []
        for (index, group) in groups.enumerated() {
            for update in results[index].updates {
                let output = group.directory.resolving(update.entry.output)
                do {
                    try AtomicFile.write(update.bytes, to: output)
                    manifests[group.manifest].entries[update.entry.output] = update.entry
                    touched.insert(group.manifest)
                    report.updated.append(output.description)
                } catch {
                    report.mismatches.append(CheckMismatch(output: output.description, kind: .outputUnreadable(reason: "cannot update: \(error.message)")))
                }
            }
        }
        for index in touched.sorted() {
            let path = manifestPaths[index]
            do { _ = try manifests[index].write(to: path) } catch {
                report.mismatches.append(CheckMismatch(output: path.description, kind: .outputUnreadable(reason: "cannot update the manifest: \(error.message)")))
            }
        }
        return report
    }

    /// What checking one source's outputs found: mismatches, notes on the outputs that match, and
    /// for `--update` the regenerated files with their new entries.
    private struct SourceResult: Sendable {
        var mismatches: [CheckMismatch] = []
        var matches: [(output: String, note: String)] = []
        var updates: [(entry: ManifestEntry, bytes: [UInt8])] = []
    }

    private func check(_ entries: [ManifestEntry], directory: FilePath, source: FilePath) -> SourceResult {
        var mismatches: [(index: Int, CheckMismatch)] = []
        var notes: [Int: String] = [:]
        func report(_ index: Int, _ kind: CheckMismatch.Kind) {
            mismatches.append((index, CheckMismatch(output: directory.resolving(entries[index].output).description, kind: kind)))
        }
        // The files on disk, when they are there.
        var onDisk: [Int: [UInt8]] = [:]
        for (index, entry) in entries.enumerated() {
            switch FileSystem.read(directory.resolving(entry.output)) {
            case .failure(let f) where f.isMissingFile:
                notes[index] = "ok (not on disk; regenerated)"
            case .failure(let f):
                report(index, .outputUnreadable(reason: f.reason))
            case .success(let bytes):
                onDisk[index] = bytes
                let fileHash = SHA256.hex(bytes)
                if fileHash != entry.fileSHA256 { report(index, .fileHashOnDisk(expected: entry.fileSHA256, actual: fileHash)) }
                checkDecoded(bytes, entry) { report(index, $0) }
            }
        }
        // The source as it is now: one that changed since the manifest is not regenerated.
        let sourceHash: String? = switch FileSystem.read(source) {
        case .success(let bytes): SHA256.hex(bytes)
        case .failure: nil
        }
        // A fresh rendering, for entries made with the current settings: one request per set of
        // settings the source's entries were made with.
        var toRender: [Int] = []
        var changedSource: Set<Int> = []
        for (index, entry) in entries.enumerated() {
            if let current = settings, current != entry.settings {
                report(index, .settingsDiffer(recorded: entry.settings, current: current))
            } else if let sourceHash, sourceHash != entry.sourceFingerprint.sha256 {
                report(index, .sourceChanged(expected: entry.sourceFingerprint.sha256, actual: sourceHash))
                changedSource.insert(index)
                // Rendered all the same, for --update.
                toRender.append(index)
            } else {
                toRender.append(index)
            }
        }
        guard !toRender.isEmpty else { return finish(entries, directory: directory, mismatches, notes: notes, updates: []) }
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
            return finish(entries, directory: directory, mismatches, notes: notes, updates: [])
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
                return finish(entries, directory: directory, mismatches, notes: notes, updates: [])
            }
        }
        var updates: [Int: (entry: ManifestEntry, bytes: [UInt8])] = [:]
        for index in toRender {
            let entry = entries[index]
            let request = requestSettings.firstIndex(of: entry.settings)!
            guard let output = rendering.outputs.first(where: { $0.request == request && entry.matches($0) }) else {
                report(index, .regenerationFailed(reason: "renderer gave no output at scale \(entry.scale)"))
                continue
            }
            let libraries = LibraryVersions.current.changes(from: LibraryVersions(settings: entry.settings))
            if !changedSource.contains(index) {
                if output.width != entry.width || output.height != entry.height {
                    report(index, .sizeRegenerated(expected: "\(entry.width)x\(entry.height)", actual: "\(output.width)x\(output.height)"))
                }
                let fileHash = SHA256.hex(output.bytes)
                if output.rating != entry.rating {
                    report(index, .ratingRegenerated(expected: entry.rating?.rating?.description ?? "none",
                                                     actual: output.rating?.rating?.description ?? "none"))
                }
                if output.pixelSHA256 != entry.pixelSHA256 {
                    let measured = measure(output.bytes, against: onDisk[index], entry: entry, directory: directory)
                    if let measured, measured.comparison.matches(tolerance: options.tolerance) {
                        notes[index] = "ok (within tolerance \(options.tolerance): \(measured.comparison.summary))"
                    } else {
                        report(index, .pixelsDiffer(expected: entry.pixelSHA256, actual: output.pixelSHA256,
                                                    measure: measured?.comparison.summary, libraries: libraries, diffImage: measured?.diffImage))
                    }
                } else if fileHash != entry.fileSHA256 {
                    report(index, .encoderBytesDiffer(libraries: libraries))
                } else if !libraries.isEmpty {
                    notes[index] = "ok (same bytes; library version differs: " + libraries.map(\.description).joined(separator: ", ") + ")"
                }
            }
            if options.update && mismatches.contains(where: { $0.index == index }) {
                var updated = entry
                updated.fileSHA256 = SHA256.hex(output.bytes)
                updated.pixelSHA256 = output.pixelSHA256
                updated.width = output.width
                updated.height = output.height
                updated.rating = output.rating
                updated.settings = Self.withCurrentLibraries(entry.settings)
                updated.toolVersion = ThumbKitVersion.string
                if case .success(let status) = FileSystem.status(source), let sourceHash {
                    updated.sourceFingerprint = SourceFingerprint(sha256: sourceHash, status: status)
                }
                updates[index] = (updated, output.bytes)
            }
        }
        return finish(entries, directory: directory, mismatches, notes: notes, updates: updates.keys.sorted().map { updates[$0]! })
    }

    /// Recorded settings with their `libraries` field (or the fields that named library versions
    /// before it) replaced by this build's: what an updated entry records.
    static func withCurrentLibraries(_ settings: String) -> String {
        let kept = settings.split(separator: ";", omittingEmptySubsequences: false).filter { field in
            !["libraries=", "codec=", "jpeg=", "webp=", "webp:webp="].contains { field.hasPrefix($0) }
        }
        return (kept + ["libraries=" + CodecVersions.field]).joined(separator: ";")
    }

    /// The regenerated file's pixels against the output on disk (decoded both, as stored), and
    /// the diff image written under `options.diffDirectory`; nil without a decodable file on disk.
    private func measure(_ regenerated: [UInt8], against disk: [UInt8]?, entry: ManifestEntry,
                         directory: FilePath) -> (comparison: ImageComparison, diffImage: String?)? {
        guard let disk, OutputFormat(name: entry.format) != nil,
              let now = try? ImageSource.bytes(regenerated).decodeAsStored(), let before = try? ImageSource.bytes(disk).decodeAsStored()
        else { return nil }
        let comparison = ImageComparison(now, before)
        guard let folder = options.diffDirectory, !comparison.matches(tolerance: options.tolerance),
              let diff = comparison.diffImage(), let png = try? PNGEncoder().encode(diff) else { return (comparison, nil) }
        // The output's path below the manifest's folder, with `.diff.png` in place of its extension.
        var name = entry.output.description
        if let dot = name.lastIndex(of: "."), !name[dot...].contains("/") { name = String(name[..<dot]) }
        let path = folder.resolving(FilePath(name + ".diff.png"))
        do {
            try AtomicFile.write(png, to: path)
            return (comparison, path.description)
        } catch {
            return (comparison, nil)
        }
    }

    /// The source's result: mismatches in entry order, a note for each entry that matches.
    private func finish(_ entries: [ManifestEntry], directory: FilePath, _ mismatches: [(index: Int, CheckMismatch)],
                        notes: [Int: String], updates: [(entry: ManifestEntry, bytes: [UInt8])]) -> SourceResult {
        let differing = Set(mismatches.map(\.index))
        var result = SourceResult(mismatches: ordered(mismatches), updates: updates)
        for index in entries.indices where !differing.contains(index) {
            result.matches.append((directory.resolving(entries[index].output).description, notes[index] ?? "ok"))
        }
        return result
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
