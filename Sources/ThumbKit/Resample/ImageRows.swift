/// An image in memory read as rows, so the resampler's one streaming pass serves decoded images too.
struct ImageRows: RowSource {
    let image: Image
    private var next = 0

    init(image: Image) {
        self.image = image
    }

    var width: Int { image.width }
    var height: Int { image.height }
    var bitDepth: Int { if case .sixteen = image.samples { 16 } else { 8 } }
    var rowChannels: Int { 4 }

    mutating func readRow(into row: inout [UInt8]) {
        guard case .eight(let samples) = image.samples else { preconditionFailure("an 8-bit row of a 16-bit image") }
        copyRow(samples, into: &row)
    }

    mutating func readRow(into row: inout [UInt16]) {
        guard case .sixteen(let samples) = image.samples else { preconditionFailure("a 16-bit row of an 8-bit image") }
        copyRow(samples, into: &row)
    }

    private mutating func copyRow<Sample>(_ samples: [Sample], into row: inout [Sample]) {
        let length = image.width * 4
        row.withUnsafeMutableBufferPointer { out in
            samples.withUnsafeBufferPointer { all in
                _ = out.initialize(from: all[next * length ..< (next + 1) * length])
            }
        }
        next += 1
    }
}
