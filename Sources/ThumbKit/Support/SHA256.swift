import CThumbKernels

/// SHA-256 (FIPS 180-4), for source fingerprints, output and pixel hashes in manifests and golden
/// tests.
///
/// Written here because Foundation on Linux has no digest API and ThumbKit depends on no outside
/// package. The block compression is C (`tk_sha256_blocks`): it uses the CPU's SHA extensions when
/// present (a 12-megapixel source is hashed on every run, so this is on the hot path) and an
/// equivalent portable loop otherwise.
package struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    package init() {}

    /// Adds bytes to the message.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// Adds bytes to the message.
    package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        totalBytes &+= UInt64(bytes.count)
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending += bytes[0..<take]
            offset = take
            if pending.count == 64 {
                compress(pending, blocks: 1)
                pending.removeAll(keepingCapacity: true)
            }
        }
        let blocks = (bytes.count - offset) / 64
        if blocks > 0 {
            compress(UnsafeBufferPointer(rebasing: bytes[offset...]), blocks: blocks)
            offset += blocks * 64
        }
        pending += bytes[offset...]
    }

    /// The 32-byte digest of everything added.
    package func finalize() -> [UInt8] {
        var copy = self
        let bitLength = totalBytes &* 8
        var tail = copy.pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        copy.compress(tail, blocks: tail.count / 64)
        return copy.state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// The digest of `bytes` as 64 lower-case hex digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize().hexString
    }

    private mutating func compress(_ data: [UInt8], blocks: Int) {
        data.withUnsafeBufferPointer { compress($0, blocks: blocks) }
    }

    private mutating func compress(_ data: UnsafeBufferPointer<UInt8>, blocks: Int) {
        precondition(data.count >= blocks * 64)
        state.withUnsafeMutableBufferPointer { tk_sha256_blocks($0.baseAddress!, data.baseAddress!, blocks) }
    }
}

extension Array where Element == UInt8 {
    /// Lower-case hexadecimal, two digits a byte.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
