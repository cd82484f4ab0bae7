/// How the sheet command finds its photos and writes its pages: the batch's source finding, and
/// its atomic writes.
extension ContactSheet {
    /// The photos found among the inputs, and the inputs that promised one but are not readable.
    package struct Inputs: Sendable {
        package var sources: [SheetSource]
        package var failures: [SheetPlan.Message]
        /// The twins of a shot left out, each saying which file was used instead.
        package var twins: [SheetPlan.Message] = []
    }

    /// Walks the inputs as a batch does (sorted, content-recognised), leaving out the sheet's own
    /// files from an earlier run (`naming`) and the twins of a shot `pairing` does not keep (one
    /// cell per shot, as one thumbnail per shot), and looks up each photo's outside rating.
    package static func findSources(_ inputs: [FilePath], includeHidden: Bool, jobs: Int, excluding naming: SheetNaming,
                                    pairing: SourcePairing = .preferJPEG,
                                    rating: @escaping @Sendable (FilePath) -> RatingLookup) throws(BatchError) -> Inputs {
        let found = try SourceFinder(inputs: inputs, includeHidden: includeHidden, jobs: jobs).find()
        var images: [FilePath] = []
        var failures: [SheetPlan.Message] = []
        for item in found {
            switch item.kind {
            case .image:
                if let text = item.path.string, naming.isOwnFile(text) { continue }
                images.append(item.path)
            case .failed(let reason): failures.append(SheetPlan.Message(name: item.shownPath, text: reason))
            case .skipped, .sidecar: break
            }
        }
        // Twins are told apart by folder and stem, as the batch tells them (its relative paths
        // and these full ones group alike).
        var twins: [SheetPlan.Message] = []
        let leftOut = pairing.twins(images)
        if !leftOut.isEmpty {
            for (twin, kept) in leftOut.sorted(by: { $0.key < $1.key }) {
                twins.append(SheetPlan.Message(name: images[twin].description, text: SourcePairing.leftOutReason(kept: images[kept])))
            }
            images = images.indices.filter { leftOut[$0] == nil }.map { images[$0] }
        }
        // A sidecar lookup is a stat or two per photo: threads pay off on a large folder.
        let lookups = WorkerPool.map(images, threads: min(jobs, images.count / 64 + 1), stackSize: WorkerPool.shallowStackSize,
                                     batchSize: 16, rating)
        return Inputs(sources: zip(images, lookups).map { SheetSource(path: $0, externalRating: $1) }, failures: failures, twins: twins)
    }

    /// Writes a page's files (each scale's image, then its map) whole: each is staged beside its
    /// destination and renamed into place only once all are on disk, so a failure leaves the
    /// previous page, not half of one.
    package static func write(_ files: [(path: String, bytes: [UInt8])]) throws(FileWriteError) {
        var staged: [StagedFile] = []
        for file in files {
            do { staged.append(try AtomicFile.stage(file.bytes, to: file.path)) } catch {
                staged.forEach(AtomicFile.discard)
                throw error
            }
        }
        if let error = AtomicFile.commit(staged, syncData: true).compactMap({ $0 }).first { throw error }
        for directory in Set(staged.map { AtomicFile.directory(of: $0.path) }) { AtomicFile.syncDirectory(directory) }
    }
}

extension SheetNaming {
    /// Whether `path` is one of this sheet's page images (any page, any scale), as a path spelt
    /// the way the inputs were: an earlier run's sheet inside an input folder is not a photo.
    func isOwnFile(_ path: String) -> Bool {
        func normal(_ text: String) -> Substring { text.hasPrefix("./") ? text.dropFirst(2) : Substring(text) }
        var rest = normal(path)
        let stem = normal(self.stem)
        guard rest.hasPrefix(stem), rest.lowercased().hasSuffix("." + fileExtension.lowercased()) else { return false }
        rest = rest.dropFirst(stem.count).dropLast(fileExtension.count + 1)
        if let at = rest.lastIndex(of: "@"), ["@2x", "@3x"].contains(rest[at...]) { rest = rest[..<at] }
        if numbered {
            guard rest.first == "-" else { return false }
            rest = rest.dropFirst()
            return !rest.isEmpty && rest.allSatisfy(\.isNumber)
        }
        return rest.isEmpty
    }
}
