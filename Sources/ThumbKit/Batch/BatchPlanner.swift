/// Turns a configuration into a `BatchPlan`: finds the images among each group's inputs
/// (`SourceFinder`), leaves out the twins of a shot its pairing does not keep (`SourcePairing`),
/// names the outputs, rejects colliding outputs, and keeps this shard's slice.
///
/// Only the first few bytes of each file are read here, and, for a group that names outputs by
/// their width, the header of a source the manifest does not already know unchanged (its size
/// decides which widths it gets). Files are hashed and decoded one per worker while running, in
/// bounded pieces, so memory stays bounded by the jobs in flight.
package struct BatchPlanner: Sendable {
    package let configuration: BatchConfiguration
    /// The previous run's entries by source (its manifest key): sizes of unchanged sources are
    /// taken from them.
    private let previousBySource: [FilePath: [ManifestEntry]]

    package init(configuration: BatchConfiguration, previous: Manifest = Manifest()) {
        self.configuration = configuration
        self.previousBySource = Dictionary(grouping: previous.sortedEntries, by: \.source)
    }

    /// Plans the run. Throws `BatchError.outputCollisions` (every output two sources would write,
    /// naming both) before anything is written; collisions are checked across all shards so every
    /// shard of a batch agrees. A twin left out is a skipped item, saying which file is kept.
    package func plan() throws(BatchError) -> BatchPlan {
        var outputIdentities: Set<SourceWalker.DirectoryID> = []
        for group in configuration.groups {
            if case .success(let st) = FileSystem.status(group.outputDirectory), st.isDirectory {
                outputIdentities.insert(.init(device: st.device, inode: st.inode))
            }
        }
        // Keys are paths relative to the manifest's folder, two or more a source.
        let keys = RelativePaths(from: configuration.manifestDirectory)
        var items: [BatchPlan.Item] = []
        // Each item's path below its input or base: what shards split by.
        var relatives: [FilePath] = []
        var sourceItem: [FilePath: Int] = [:]
        var reported: Set<FilePath> = []
        // Twins left out, by identity: replaced by the source if another group keeps them.
        var twinItem: [FilePath: Int] = [:]
        for (index, group) in configuration.groups.enumerated() {
            try checkBase(group)
            let finder = SourceFinder(inputs: group.inputs, includeHidden: configuration.includeHidden,
                                      outputDirectories: outputIdentities, jobs: configuration.jobs)
            let founds = try finder.find()
            let belowBase = group.base.map { RelativePaths(from: $0, workingDirectory: keys.workingDirectory) }
            let relativeOf = { (found: SourceFinder.Found) in belowBase.map { $0.path(of: found.path) } ?? found.relative }
            let images = founds.indices.filter { if case .image = founds[$0].kind { true } else { false } }
            let twins = group.pairing.twins(images.map { relativeOf(founds[$0]) })
            var keptFor: [Int: FilePath] = [:]
            for (twin, kept) in twins { keptFor[images[twin]] = founds[images[kept]].path }
            for (position, found) in founds.enumerated() {
                // One path, one item, however many groups walk it.
                let identity = found.path.normalized
                let relative = relativeOf(found)
                if let kept = keptFor[position] {
                    if sourceItem[identity] == nil && twinItem[identity] == nil && reported.insert(identity).inserted {
                        twinItem[identity] = items.count
                        items.append(.skipped(path: found.shownPath, reason: SourcePairing.leftOutReason(kept: kept)))
                        relatives.append(relative)
                    }
                    continue
                }
                switch found.kind {
                case .sidecar:
                    continue
                case .skipped(let reason):
                    if reported.insert(identity).inserted {
                        items.append(.skipped(path: found.shownPath, reason: reason))
                        relatives.append(relative)
                    }
                case .failed(let reason):
                    if reported.insert(identity).inserted {
                        items.append(.failed(path: found.shownPath, reason: reason))
                        relatives.append(relative)
                    }
                case .image(let size):
                    let membership = BatchPlan.Membership(group: index, relativePath: relative)
                    if let at = sourceItem[identity], case .source(var source) = items[at] {
                        if !source.memberships.contains(where: { $0.group == index }) { source.memberships.append(membership) }
                        items[at] = .source(source)
                    } else if let at = twinItem.removeValue(forKey: identity) {
                        // Left out as a twin by an earlier group, kept by this one: a source where
                        // it was first met.
                        sourceItem[identity] = at
                        items[at] = .source(.init(path: found.path, key: keys.path(of: found.path),
                                                  memberships: [membership], size: size))
                    } else {
                        sourceItem[identity] = items.count
                        items.append(.source(.init(path: found.path, key: keys.path(of: found.path),
                                                   memberships: [membership], size: size)))
                        relatives.append(relative)
                    }
                }
            }
        }
        try nameOutputs(&items, keys: keys)
        var plan = BatchPlan(items: items)
        for source in plan.sources {
            plan.outputsOfAllShards.formUnion(source.outputs.map(\.key))
            if source.memberships.contains(where: { $0.outputs == nil }) { plan.unnamedSources.insert(source.key) }
        }
        if let shard = configuration.shard {
            plan.items = zip(items, relatives).filter { shard.contains(relativePath: $0.1.bytes) }.map(\.0)
        }
        return plan
    }

    /// Every input of a group with a base lies inside it (`--base photos` and `photos/day1`).
    private func checkBase(_ group: OutputGroup) throws(BatchError) {
        guard let base = group.base else { return }
        for input in group.inputs {
            let offset = input.relative(from: base).bytes
            if offset.starts(with: [0x2E, 0x2E]) && (offset.count == 2 || offset[2] == FilePath.slash) {
                throw .outsideBase(input: input, base: base)
            }
        }
    }

    /// Gives every membership its outputs: sizes first where the naming needs them (from the
    /// previous manifest, else the headers, read in parallel), then names, then the collision
    /// checks: every collision is collected, and thrown together once all are named.
    private func nameOutputs(_ items: inout [BatchPlan.Item], keys: RelativePaths) throws(BatchError) {
        let groups = configuration.groups
        var unknown: [(item: Int, membership: Int)] = []
        for (index, item) in items.enumerated() {
            guard case .source(var source) = item else { continue }
            for (m, membership) in source.memberships.enumerated() where groups[membership.group].needsSourceSize {
                if let size = recordedSize(of: source, group: groups[membership.group]) {
                    (source.memberships[m].sourceWidth, source.memberships[m].sourceHeight) = (size.width, size.height)
                } else {
                    unknown.append((index, m))
                }
            }
            items[index] = .source(source)
        }
        let limits = configuration.limits
        let snapshot = items
        let sizes = WorkerPool.map(unknown, threads: min(configuration.jobs, unknown.count / 16 + 1),
                                   stackSize: WorkerPool.renderStackSize) { slot -> (width: Int, height: Int)? in
            guard case .source(let source) = snapshot[slot.item] else { return nil }
            return Self.uprightSize(source.path, autoRotate: groups[source.memberships[slot.membership].group].thumbnailSet.options.autoRotate,
                                    limits: limits)
        }
        for (slot, size) in zip(unknown, sizes) {
            guard case .source(var source) = items[slot.item], let size else { continue }
            (source.memberships[slot.membership].sourceWidth, source.memberships[slot.membership].sourceHeight) = (size.width, size.height)
            items[slot.item] = .source(source)
        }

        var owners: [FilePath: FilePath] = [:]
        var templateOwners: [FilePath: FilePath] = [:]
        var collisions: [OutputCollision] = []
        for (index, item) in items.enumerated() {
            guard case .source(var source) = item else { continue }
            for (m, membership) in source.memberships.enumerated() {
                let group = groups[membership.group]
                if let icons = group.iconSet {
                    // An icon set's files are named by the set alone, below the output folder.
                    var outputs: [BatchPlan.Output] = []
                    for file in icons.files {
                        let key = keys.path(of: group.outputDirectory.appending(FilePath(file.path)))
                        if let first = owners[key] {
                            collisions.append(OutputCollision(output: key, first: first, second: source.path))
                        } else {
                            owners[key] = source.path
                        }
                        outputs.append(BatchPlan.Output(variant: ThumbnailVariant(), relativePath: FilePath(file.path), key: key, iconFile: file.path))
                    }
                    source.memberships[m].outputs = outputs
                    continue
                }
                let size = membership.sourceWidth.map { (width: $0, height: membership.sourceHeight!) }
                if group.naming.namesWidths {
                    for scale in group.thumbnailSet.scales {
                        for format in group.thumbnailSet.formats {
                            let template = keys.path(of: group.outputDirectory.appending(
                                group.naming.template(forSource: membership.relativePath, scale: scale, format: format)))
                            if let first = templateOwners[template], first != source.path {
                                collisions.append(OutputCollision(output: FilePath(template.bytes.map { $0 == 0 ? UInt8(ascii: "*") : $0 }),
                                                                  first: first, second: source.path))
                            } else {
                                templateOwners[template] = source.path
                            }
                        }
                    }
                }
                guard let variants = group.variants(sourceSize: size) else { continue }
                var outputs: [BatchPlan.Output] = []
                for variant in variants {
                    let relative = group.naming.output(forSource: membership.relativePath, variant: variant)
                    let key = keys.path(of: group.outputDirectory.appending(relative))
                    if let first = owners[key] {
                        // A set of widths already reported this pair by its template.
                        if !group.naming.namesWidths { collisions.append(OutputCollision(output: key, first: first, second: source.path)) }
                    } else {
                        owners[key] = source.path
                    }
                    outputs.append(BatchPlan.Output(variant: variant, relativePath: relative, key: key))
                }
                source.memberships[m].outputs = outputs
            }
            items[index] = .source(source)
        }
        // One line per pair of sources: its first output stands for the others (`a@2x.png`, …).
        var pairs: Set<[FilePath]> = []
        collisions = collisions.filter { pairs.insert([$0.first, $0.second]).inserted }
        if !collisions.isEmpty { throw .outputCollisions(collisions) }
    }

    /// The upright size the previous run recorded for this source in this group, if the file is
    /// unchanged since (its stat data match) and the group's settings are the ones it was made
    /// with (`--no-rotate` changes what upright means).
    private func recordedSize(of source: BatchPlan.Source, group: OutputGroup) -> (width: Int, height: Int)? {
        guard case .success(let status) = FileSystem.status(source.path) else { return nil }
        for entry in previousBySource[source.key] ?? [] where entry.settings == group.settings {
            if let width = entry.sourceWidth, let height = entry.sourceHeight, entry.sourceFingerprint.statMatches(status) {
                return (width, height)
            }
        }
        return nil
    }

    /// The size a source's header gives, upright unless `autoRotate` is off; nil when it cannot be
    /// read (the source then fails as it is rendered, with the renderer's message).
    static func uprightSize(_ path: FilePath, autoRotate: Bool, limits: DecodeLimits) -> (width: Int, height: Int)? {
        guard let header = try? ImageSource.file(path: path).header(limits: limits) else { return nil }
        return autoRotate ? (header.width, header.height) : (header.storedWidth, header.storedHeight)
    }
}
