import Glibc

extension FileSystem {
    /// Why a stream could not be read whole.
    package enum StreamFailure: Error, Sendable, Equatable {
        /// More than `limit` bytes came: reading stopped there, so a stream without end (or a
        /// huge one) costs at most the limit.
        case tooLarge(limit: UInt64)
        case system(SystemFailure)
    }

    /// Everything a descriptor gives until its end (a pipe, standard input), in 64 KiB pieces;
    /// with `maxBytes` > 0, at most that many bytes are kept before the read is abandoned.
    package static func readStream(_ fd: Int32, maxBytes: UInt64) -> Result<[UInt8], StreamFailure> {
        var bytes: [UInt8] = []
        while true {
            switch readPiece(fd, upTo: 1 << 16) {
            case .failure(let failure):
                return .failure(.system(failure))
            case .success(let piece):
                bytes += piece.bytes
                if maxBytes > 0 && UInt64(bytes.count) > maxBytes { return .failure(.tooLarge(limit: maxBytes)) }
                if piece.reachedEnd { return .success(bytes) }
            }
        }
    }
}
