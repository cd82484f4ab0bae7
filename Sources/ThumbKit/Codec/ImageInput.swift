import CCodecSupport

/// An `ImageSource` opened for reading: an open regular file and its size, or bytes in memory.
/// The format is recognised from it, and the decoder's `CodecReader` reads it, so a file is
/// opened once however many readers look at it (each reads by offset, none moves the descriptor).
struct ImageInput {
    private enum Storage {
        /// The file stays open for as long as the input is kept.
        case file(SourceFile, size: UInt64)
        case bytes([UInt8])
    }

    private let storage: Storage

    /// Opens the source. A file larger than `limits.maxFileBytes` is refused from its size before
    /// any byte is read, whichever decoder would read it (each still stops at the limit if the file
    /// grows): a path's size is taken with `stat` before it is opened, as a file's is that only a
    /// limit asks about.
    static func open(_ source: ImageSource, limits: DecodeLimits) throws(DecodeError) -> ImageInput {
        switch source.origin {
        case .bytes(let bytes):
            return ImageInput(storage: .bytes(bytes))
        case .path(let path):
            if limits.maxFileBytes != 0, case .success(let status) = FileSystem.status(path) {
                try check(size: status.size, limits: limits)
            }
            switch SourceFile.open(path) {
            case .failure(let failure): throw .unreadable(reason: failure.reason)
            case .success(let file): return ImageInput(storage: .file(file, size: UInt64(max(file.status.size, 0))))
            }
        case .file(let file):
            // Its size now, not when it was opened: it is read as it is now.
            switch FileSystem.status(descriptor: file.descriptor) {
            case .failure(let failure): throw .unreadable(reason: failure.reason)
            case .success(let status):
                try check(size: status.size, limits: limits)
                return ImageInput(storage: .file(file, size: UInt64(max(status.size, 0))))
            }
        }
    }

    private static func check(size: Int64, limits: DecodeLimits) throws(DecodeError) {
        guard limits.maxFileBytes != 0, size > 0, UInt64(size) > limits.maxFileBytes else { return }
        throw .limitExceeded(LimitExceeded(limit: .fileBytes, actual: UInt64(size), allowed: limits.maxFileBytes))
    }

    /// The format the first bytes say, or why there is none. A file that begins as a TIFF is a
    /// camera RAW when its directories say so (`CameraRAW.isRAW`: DNG, CR2, NEF, ARW, PEF, SRW).
    func format() throws(DecodeError) -> ImageFormat {
        let head = try self.head(ImageFormat.detectionLength)
        if let format = ImageFormat.detect(head) {
            return format == .tiff && CameraRAW.isRAW(RAWBytes(self)) ? .raw : format
        }
        if head.isEmpty { throw .empty }
        // The start of a signature with nothing after it: a file cut off in its first bytes.
        if ImageFormat.allCases.contains(where: { $0.couldStart(head) }) {
            throw .truncated
        }
        throw .unrecognised
    }

    private func head(_ count: Int) throws(DecodeError) -> [UInt8] {
        switch storage {
        case .bytes(let bytes):
            return Array(bytes.prefix(count))
        case .file(let file, _):
            switch FileSystem.head(descriptor: file.descriptor, count: count) {
            case .failure(let failure): throw .unreadable(reason: failure.reason)
            case .success(let head): return head
            }
        }
    }

    /// The input's size in bytes.
    var size: UInt64 {
        switch storage {
        case .file(_, let size): return size
        case .bytes(let bytes): return UInt64(bytes.count)
        }
    }

    /// Up to `count` bytes from `offset`, fewer where the input ends (readers that parse a
    /// container by offset: `RAWBytes`).
    func bytes(at offset: UInt64, count: Int) throws(DecodeError) -> [UInt8] {
        switch storage {
        case .bytes(let bytes):
            guard offset < UInt64(bytes.count) else { return [] }
            let start = Int(offset)
            return Array(bytes[start..<start + min(count, bytes.count - start)])
        case .file(let file, _):
            switch FileSystem.read(descriptor: file.descriptor, at: offset, count: count) {
            case .failure(let failure): throw .unreadable(reason: failure.reason)
            case .success(let read): return read
            }
        }
    }

    /// A new byte source over the input for one C reader (nil when memory runs out); its owner
    /// frees it with `tg_source_free`.
    func makeSource() -> OpaquePointer? {
        switch storage {
        case .file(let file, let size): return tg_source_new_descriptor(file.descriptor, size)
        case .bytes(let bytes): return tg_source_new_memory(UInt64(bytes.count))
        }
    }

    /// Runs a call that may read `source`, with the bytes (if the input is bytes) lent to it for
    /// the length of the call: a Swift array's storage may move between calls, so it is lent
    /// rather than copied into C memory.
    func lend<T>(to source: OpaquePointer, _ body: () -> T) -> T {
        guard case .bytes(let bytes) = storage else { return body() }
        // An empty array may have no storage to point at; one byte stands in (the source's size is 0).
        let storage = bytes.isEmpty ? [0] : bytes
        return storage.withUnsafeBufferPointer { lent in
            tg_source_lend(source, lent.baseAddress)
            defer { tg_source_lend(source, nil) }
            return body()
        }
    }
}
