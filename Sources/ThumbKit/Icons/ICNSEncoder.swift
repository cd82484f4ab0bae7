/// Writes Apple icon files (`.icns`): the `icns` magic and the file's length, then each entry as
/// its four-character OSType, its length (header included) and its data, big-endian. Entries hold
/// PNG files, which macOS reads under every type from `icp4` (16 px) to `ic10` (1024 px, the
/// 512 pt @2x icon) since 10.8.
package enum ICNSEncoder {
    /// The file's bytes, the entries in the order given; each type is four ASCII characters.
    package static func encode(_ entries: [(type: String, data: [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for entry in entries {
            precondition(entry.type.utf8.count == 4, "an OSType is four bytes")
            body += Array(entry.type.utf8) + be32(8 + entry.data.count) + entry.data
        }
        return Array("icns".utf8) + be32(8 + body.count) + body
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
