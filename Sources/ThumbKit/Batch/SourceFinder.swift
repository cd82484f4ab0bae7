/// Finds the images among a run's inputs: walks them (`SourceWalker`), reads each file's first
/// bytes and recognises images by content. What a batch plans outputs for and a contact sheet
/// lays out.
///
/// Only the first few bytes of each file are read here; files are decoded later, one per job.
struct SourceFinder: Sendable {
    /// Files per thread at least: a second thread starts from 64 files.
    static let filesPerThread = 64
    /// Files a thread takes at a time, so a file on a slow disk holds up only a few.
    static let filesPerBatch = 16

    /// One thing the walk found, in walk order.
    struct Found: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// A supported image, with its size in bytes.
            case image(size: Int64)
            /// A file that promised an image but is not a supported one, or could not be examined.
            case failed(reason: String)
            /// Something that is not an image, or was not walked (hidden, output directory, loop).
            case skipped(reason: String)
            /// An XMP sidecar (`NAME.xmp`, `NAME.jpg.xmp`): part of a photo, not a file of its
            /// own, so neither processed nor counted as skipped (a folder of 237 photos and their
            /// sidecars is 237 items, not 474).
            case sidecar
        }
        /// The path to open: the input joined with `relative`.
        var path: FilePath
        /// The path below its input (a file input's base name).
        var relative: FilePath
        var kind: Kind

        /// The path escaped for printing.
        var shownPath: String { PathEscaping.escape(bytes: path.bytes) }
    }

    /// Files and directories, in the order given; directories are walked recursively.
    var inputs: [FilePath]
    /// Walk names beginning with `.` as well.
    var includeHidden: Bool
    /// Directories never entered (a batch's output directories).
    var outputDirectories: Set<SourceWalker.DirectoryID>
    /// Threads for reading the files' first bytes.
    var jobs: Int

    init(inputs: [FilePath], includeHidden: Bool = false, outputDirectories: Set<SourceWalker.DirectoryID> = [], jobs: Int) {
        self.inputs = inputs
        self.includeHidden = includeHidden
        self.outputDirectories = outputDirectories
        self.jobs = jobs
    }

    /// Everything the inputs hold, in plan order: inputs in the order given, each walked depth
    /// first in byte-wise name order.
    func find() throws(BatchError) -> [Found] {
        let walker = SourceWalker(includeHidden: includeHidden, outputDirectories: outputDirectories)
        var walked: [(entry: SourceWalker.Entry, explicitFile: Bool)] = []
        for input in inputs {
            let explicitFile: Bool
            if case .success(let st) = FileSystem.status(input) { explicitFile = !st.isDirectory } else { explicitFile = true }
            for entry in try walker.walk(input: input) { walked.append((entry, explicitFile)) }
        }
        // Reading every file's first bytes is the larger part of planning, and nothing else runs
        // yet: it gets the run's jobs, though no more than one per `filesPerThread` files, since
        // starting a thread costs more than reading a few files' heads.
        let threads = min(jobs, walked.count / Self.filesPerThread + 1)
        return WorkerPool.map(walked, threads: threads, stackSize: WorkerPool.shallowStackSize, batchSize: Self.filesPerBatch) {
            Self.classify($0.entry, explicitFile: $0.explicitFile)
        }
    }

    private static func classify(_ entry: SourceWalker.Entry, explicitFile: Bool) -> Found {
        func found(_ kind: Found.Kind) -> Found { Found(path: FilePath(entry.path), relative: FilePath(entry.relative), kind: kind) }
        let fileSize: Int64
        switch entry.kind {
        case .skipped(let reason): return found(.skipped(reason: reason))
        case .failed(let reason): return found(.failed(reason: reason))
        case .file(let size): fileSize = size
        }
        let head: [UInt8]
        switch FileSystem.head(entry.path, count: ImageFormat.detectionLength) {
        case .failure(let failure):
            // An unreadable file the user did not mean as an image is not worth failing the run.
            if explicitFile || SourceWalker.hasImageExtension(entry.relative) {
                return found(.failed(reason: "cannot read: \(failure.reason)"))
            }
            return found(.skipped(reason: "cannot read: \(failure.reason)"))
        case .success(let bytes):
            head = bytes
        }
        guard ImageFormat.detect(head) != nil else {
            if explicitFile || SourceWalker.hasImageExtension(entry.relative) {
                return found(.failed(reason: "not a supported image (content is not \(ImageFormat.names()))"))
            }
            return found(Self.isSidecar(entry.relative) ? .sidecar : .skipped(reason: "not an image"))
        }
        // Names stay bytes from here on: a name that is not UTF-8 gets an output of the same bytes.
        return found(.image(size: fileSize))
    }

    /// True for a name ending in `.xmp`, in any case (what `RatingReader` reads as a sidecar).
    static func isSidecar(_ name: [UInt8]) -> Bool {
        let suffix = Array(".xmp".utf8)
        guard name.count > suffix.count else { return false }
        return zip(name.suffix(suffix.count), suffix).allSatisfy { $0 | 0x20 == $1 }
    }
}
