/// What processing one source came to: a result, or outputs staged for `OutputCommitter`, whose
/// manifest entries count only once the files are in place.
enum WorkerOutcome: Sendable {
    case finished(ItemResult)
    case staged([StagedFile], entries: [ManifestEntry], warnings: [String], bytes: Int)
}

/// Processes one source: decides whether it is up to date, renders it if not, stages its outputs.
///
/// A value shared read-only by all worker threads.
struct BatchWorker: Sendable {
    let configuration: BatchConfiguration
    let renderer: BatchRenderer
    let cancellation: CancellationFlag
    let previous: Manifest

    func process(_ source: BatchPlan.Source) -> WorkerOutcome {
        let shown = source.path.description
        func failure(_ reason: String) -> WorkerOutcome { .finished(.failed(BatchMessage(path: shown, reason: reason))) }
        let groups = configuration.groups

        // A stat of the path decides a no-op run without opening anything.
        let pathStatus: FileSystem.Status
        switch FileSystem.status(source.path) {
        case .failure(let f): return failure("cannot read: \(f.reason)")
        case .success(let st): pathStatus = st
        }
        let external = configuration.externalRating?(source.path)
        let named = source.memberships.allSatisfy { $0.outputs != nil }
        var prior: [ManifestEntry] = []
        var reusable = !configuration.force && named
        for membership in source.memberships where reusable {
            let group = groups[membership.group]
            for output in membership.outputs ?? [] {
                guard let entry = previous.entries[output.key], entry.settings == group.settings,
                      entry.toolVersion == configuration.toolVersion, Self.ratingAgrees(entry.rating, external),
                      FileSystem.isRegularFile(group.outputDirectory.appending(output.relativePath)) else {
                    reusable = false
                    break
                }
                prior.append(entry)
            }
        }
        reusable = reusable && prior.allSatisfy { $0.sourceFingerprint.sha256 == prior.first?.sourceFingerprint.sha256 }
        if reusable && prior.allSatisfy({ $0.sourceFingerprint.statMatches(pathStatus) }) {
            return .finished(.upToDate(refreshed(prior, source: source, fingerprint: nil)))
        }

        let limit = configuration.maxSourceBytes
        if limit > 0 && pathStatus.size > 0 && UInt64(pathStatus.size) > limit {
            return failure("file is too large (\(pathStatus.size) bytes, limit \(limit))")
        }
        // Hashed and decoded through one open descriptor, with its stat taken before either: if
        // the file changes after this, the recorded stat is older than the content and the next
        // run re-hashes rather than trusting a stale hash.
        let file: SourceFile
        switch SourceFile.open(source.path) {
        case .failure(let f): return failure("cannot read: \(f.reason)")
        case .success(let opened): file = opened
        }
        // The image source below reads through this descriptor: it stays open until the end.
        defer { withExtendedLifetime(file) {} }
        let fingerprint: SourceFingerprint
        switch file.sha256(maxBytes: limit) {
        case .failure(let f): return failure("cannot read: \(f.reason)")
        case .success(let hash): fingerprint = SourceFingerprint(sha256: hash, status: file.status)
        }
        if reusable && prior.first?.sourceFingerprint.sha256 == fingerprint.sha256 {
            // Same content under new stat data (copied, touched, restored): no render, no write.
            return .finished(.upToDate(refreshed(prior, source: source, fingerprint: fingerprint)))
        }
        if cancellation.isCancelled { return .finished(.dropped) }

        let image = ImageSource.file(opened: file)
        let requests = source.memberships.map { membership in
            let group = groups[membership.group]
            var request = BatchSource.Request(thumbnailSet: group.thumbnailSet, settings: group.settings,
                                              variants: membership.outputs?.map(\.variant) ?? [])
            request.iconSet = group.iconSet
            request.iconOutputDirectory = group.iconSet.map { _ in group.outputDirectory }
            return request
        }
        let rendering: BatchRendering
        do {
            rendering = try renderer(BatchSource(path: source.path, image: image, requests: requests, externalRating: external))
        } catch let error as any ThumbKitError {
            return failure(error.message)
        } catch {
            return failure(String(describing: error))
        }
        // The hash must describe the bytes that were rendered; a file written to in place
        // meanwhile is left for the next run.
        if file.changedSinceOpened { return failure("changed while it was being read") }

        var staged: [StagedFile] = []
        var entries: [ManifestEntry] = []
        for (index, membership) in source.memberships.enumerated() {
            let group = groups[membership.group]
            let made = rendering.outputs.filter { $0.request == index }
            // Outputs named while planning must each come back once; a set of widths whose
            // source could not be read then is named by what the renderer made.
            let outputs = membership.outputs ?? made.map { output in
                let relative = group.naming.output(forSource: membership.relativePath, variant: output.variant)
                return BatchPlan.Output(variant: output.variant, relativePath: relative,
                                        key: group.outputDirectory.appending(relative).relative(from: configuration.manifestDirectory))
            }
            guard made.count == outputs.count else {
                staged.forEach(AtomicFile.discard)
                return failure("renderer returned \(made.count) outputs, expected \(outputs.count)")
            }
            for output in outputs {
                // Checked per file so a cancel lands between writes; nothing staged is kept.
                if cancellation.isCancelled {
                    staged.forEach(AtomicFile.discard)
                    return .finished(.dropped)
                }
                guard let result = made.first(where: { $0.variant == output.variant && $0.iconFile == output.iconFile }) else {
                    staged.forEach(AtomicFile.discard)
                    return failure("renderer returned no output \(output.relativePath)")
                }
                do {
                    let destination = group.outputDirectory.appending(output.relativePath)
                    if configuration.writeMode == .direct {
                        // Written now, once, in plan order within the source; nothing to commit.
                        try DirectFile.write(result.bytes, to: destination, sync: configuration.sync)
                    } else {
                        staged.append(try AtomicFile.stage(result.bytes, to: destination))
                    }
                } catch {
                    staged.forEach(AtomicFile.discard)
                    return .finished(.failed(BatchMessage(path: shown, reason: error.message, isMachineFailure: error.isMachineFailure)))
                }
                var entry = ManifestEntry(
                    output: output.key, source: source.key, sourceRelative: membership.relativePath, scale: output.variant.scale,
                    format: result.fileFormat ?? output.variant.format.name, variantWidth: output.variant.width, settings: group.settings,
                    toolVersion: configuration.toolVersion, width: result.width, height: result.height,
                    fileSHA256: SHA256.hex(result.bytes), pixelSHA256: result.pixelSHA256, sourceFingerprint: fingerprint)
                entry.rating = result.rating
                entry.iconFile = output.iconFile
                entry.placeholders = result.placeholders
                if group.needsSourceSize {
                    entry.sourceWidth = result.sourceWidth ?? membership.sourceWidth
                    entry.sourceHeight = result.sourceHeight ?? membership.sourceHeight
                }
                entries.append(entry)
            }
        }
        return .staged(staged, entries: entries, warnings: rendering.warnings, bytes: rendering.outputs.reduce(0) { $0 + $1.bytes.count })
    }

    /// An output made without a badge agrees with a run without ratings; one made with a badge
    /// agrees when its recorded rating is still the photo's.
    private static func ratingAgrees(_ recorded: RecordedRating?, _ external: RatingLookup?) -> Bool {
        guard let external else { return recorded == nil }
        return recorded?.agrees(with: external) ?? false
    }

    /// The prior entries of an up-to-date source, with its path as planned now and, when it was
    /// hashed again, its new stat data.
    private func refreshed(_ entries: [ManifestEntry], source: BatchPlan.Source, fingerprint: SourceFingerprint?) -> [ManifestEntry] {
        var relativeByKey: [FilePath: FilePath] = [:]
        for membership in source.memberships {
            for output in membership.outputs ?? [] { relativeByKey[output.key] = membership.relativePath }
        }
        return entries.map { entry in
            var entry = entry
            entry.source = source.key
            entry.sourceRelative = relativeByKey[entry.output] ?? entry.sourceRelative
            if let fingerprint { entry.sourceFingerprint = fingerprint }
            return entry
        }
    }
}
