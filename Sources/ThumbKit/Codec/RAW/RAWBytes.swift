/// Bounded reads of a camera RAW container by offset: a range is read only once it is known to lie
/// inside the input, so an offset or length from the file (hostile or damaged) can never make
/// thumbgen allocate more than the file holds or read past its end.
struct RAWBytes {
    let input: ImageInput
    /// The input's size in bytes.
    let size: UInt64

    init(_ input: ImageInput) {
        self.input = input
        size = input.size
    }

    /// Whether `length` bytes from `offset` lie inside the input (no overflow).
    func contains(_ offset: UInt64, _ length: UInt64) -> Bool {
        offset <= size && length <= size - offset
    }

    /// Exactly `count` bytes at `offset`, or nil when they do not lie inside the input.
    func read(_ offset: UInt64, _ count: Int) throws(DecodeError) -> [UInt8]? {
        guard count >= 0, contains(offset, UInt64(count)) else { return nil }
        let bytes = try input.bytes(at: offset, count: count)
        // The file shrank since its size was taken: what is not there is not read.
        return bytes.count == count ? bytes : nil
    }
}

/// A byte order for reading integers out of a container's bytes.
struct ByteOrder {
    let littleEndian: Bool

    static let big = ByteOrder(littleEndian: false)

    func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        let a = UInt16(bytes[at]), b = UInt16(bytes[at + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        let a = UInt32(u16(bytes, at)), b = UInt32(u16(bytes, at + 2))
        return littleEndian ? a | b << 16 : a << 16 | b
    }

    func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        let a = UInt64(u32(bytes, at)), b = UInt64(u32(bytes, at + 4))
        return littleEndian ? a | b << 32 : a << 32 | b
    }
}
