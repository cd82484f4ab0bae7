/// A JPEG image embedded in a camera RAW file: where its bytes are, its size from its own frame
/// header, and where in the container it was found (what `thumbgen info` names).
struct RAWPreview: Hashable {
    /// Where the JPEG's bytes start in the file.
    let offset: UInt64
    /// How many bytes it has, as the container says.
    let length: UInt64
    /// Its size as stored, from its SOF marker.
    let width: Int
    let height: Int
    /// Where it was found, e.g. "SubIFD 1", "IFD0", "PRVW box", "RAF header".
    let origin: String

    var pixels: Int { width * height }

    /// The largest of `previews` by pixels; the first found of equal ones (containers are walked
    /// in a fixed order, so the choice is the same on every run).
    static func largest(_ previews: [RAWPreview]) -> RAWPreview? {
        previews.reduce(nil) { best, next in best.map { next.pixels > $0.pixels ? next : $0 } ?? next }
    }

    /// The previews found in a container as it is walked, and whether any it pointed at lay past
    /// the file's end (then a file with no usable preview is taken as cut off, not as one without).
    struct Search {
        let bytes: RAWBytes
        private(set) var found: [RAWPreview] = []
        private(set) var pointsPastEnd = false

        init(_ bytes: RAWBytes) { self.bytes = bytes }

        /// Keeps the candidate at `offset` when it is a JPEG libjpeg-turbo decodes (`JPEGFrame`),
        /// once: not data of another kind (a stripped file's placeholder text, lossless JPEG
        /// sensor data) nor a range outside the file.
        mutating func add(offset: UInt64, length: UInt64, origin: String) throws(DecodeError) {
            guard length > 0 else { return }
            guard bytes.contains(offset, length) else { pointsPastEnd = true; return }
            guard !found.contains(where: { $0.offset == offset }),
                  let size = try JPEGFrame.size(in: bytes, offset: offset, length: length) else { return }
            found.append(RAWPreview(offset: offset, length: length, width: size.width, height: size.height, origin: origin))
        }
    }
}
