/// What processing one source came to: a result, or outputs staged for `OutputCommitter`, whose
/// manifest entries count only once the files are in place.
enum WorkerOutcome: Sendable {
    case finished(ItemResult)
    case staged([StagedFile], entries: [ManifestEntry])
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

        // A stat of the path decides a no-op run without opening anything.
        let pathStatus: FileSystem.Status
        switch FileSystem.status(source.path) {
        case .failure(let f): return failure("cannot read: \(f.reason)")
        case .success(let st): pathStatus = st
        }
        let prior = source.outputs.compactMap { previous.entries[$0.relativePath] }
        let external = configuration.externalRating?(source.path)
        let reusable = !configuration.force && prior.count == source.outputs.count && prior.allSatisfy {
            $0.settings == configuration.settings && $0.toolVersion == configuration.toolVersion
                && $0.sourceFingerprint.sha256 == prior[0].sourceFingerprint.sha256
                && Self.ratingAgrees($0.rating, external)
                && FileSystem.isRegularFile(configuration.outputDirectory.appending($0.output))
        }
        if reusable && prior.allSatisfy({ $0.sourceFingerprint.statMatches(pathStatus) }) {
            return .finished(.upToDate(prior.map { refreshed($0, source: source, fingerprint: $0.sourceFingerprint) }))
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
        if reusable && prior[0].sourceFingerprint.sha256 == fingerprint.sha256 {
            // Same content under new stat data (copied, touched, restored): no render, no write.
            return .finished(.upToDate(prior.map { refreshed($0, source: source, fingerprint: fingerprint) }))
        }
        if cancellation.isCancelled { return .finished(.dropped) }

        let image = ImageSource.file(opened: file)
        let rendered: [RenderedOutput]
        do {
            rendered = try renderer(BatchSource(path: source.path, image: image, scales: configuration.naming.scales,
                                                settings: configuration.settings, externalRating: external))
        } catch let error as any ThumbKitError {
            return failure(error.message)
        } catch {
            return failure(String(describing: error))
        }
        // The hash must describe the bytes that were rendered; a file written to in place
        // meanwhile is left for the next run.
        if file.changedSinceOpened { return failure("changed while it was being read") }
        let bySuffix = Dictionary(rendered.map { ($0.suffix, $0) }, uniquingKeysWith: { first, _ in first })
        let expected = source.outputs.map(\.suffix)
        guard rendered.count == expected.count, Set(bySuffix.keys) == Set(expected) else {
            let got = rendered.map { $0.suffix.isEmpty ? "1x" : $0.suffix }.joined(separator: ", ")
            let want = expected.map { $0.isEmpty ? "1x" : $0 }.joined(separator: ", ")
            return failure("renderer returned outputs [\(got)], expected [\(want)]")
        }

        var staged: [StagedFile] = []
        var entries: [ManifestEntry] = []
        for (output, scale) in zip(source.outputs, configuration.naming.scales) {
            // Checked per file so a cancel lands between writes; nothing staged is kept.
            if cancellation.isCancelled {
                staged.forEach(AtomicFile.discard)
                return .finished(.dropped)
            }
            let result = bySuffix[output.suffix]!
            do {
                staged.append(try AtomicFile.stage(result.bytes, to: configuration.outputDirectory.appending(output.relativePath)))
            } catch {
                staged.forEach(AtomicFile.discard)
                return failure(error.message)
            }
            entries.append(ManifestEntry(
                output: output.relativePath, source: source.path, sourceRelative: source.relativePath, scale: scale,
                settings: configuration.settings, toolVersion: configuration.toolVersion,
                width: result.width, height: result.height, fileSHA256: SHA256.hex(result.bytes),
                pixelSHA256: result.pixelSHA256, sourceFingerprint: fingerprint))
            entries[entries.count - 1].rating = result.rating
        }
        return .staged(staged, entries: entries)
    }

    /// An output made without a badge agrees with a run without ratings; one made with a badge
    /// agrees when its recorded rating is still the photo's.
    private static func ratingAgrees(_ recorded: RecordedRating?, _ external: RatingLookup?) -> Bool {
        guard let external else { return recorded == nil }
        return recorded?.agrees(with: external) ?? false
    }

    private func refreshed(_ entry: ManifestEntry, source: BatchPlan.Source, fingerprint: SourceFingerprint) -> ManifestEntry {
        var entry = entry
        entry.source = source.path
        entry.sourceRelative = source.relativePath
        entry.sourceFingerprint = fingerprint
        return entry
    }
}
