/// Writes Windows icon files (`.ico`): an ICONDIR, one ICONDIRENTRY per image, then the images,
/// each either a PNG file (Windows Vista and later) or a 32-bit BMP without its file header, as
/// Windows has read since XP: a BITMAPINFOHEADER with twice the height, the BGRA rows bottom-up
/// (straight alpha), then the AND mask, 1 bit a pixel, rows padded to 32 bits, bottom-up, set
/// where the pixel is fully transparent, for readers that ignore the alpha channel.
package enum ICOEncoder {
    /// One image of the file.
    package struct Entry {
        /// Straight 8-bit RGBA, 1 to 256 pixels a side.
        package let image: Image
        /// The PNG to store instead of a BMP, if any.
        package let png: [UInt8]?

        package init(image: Image, png: [UInt8]? = nil) {
            self.image = image
            self.png = png
        }
    }

    /// The file's bytes, the entries in the order given.
    package static func encode(_ entries: [Entry]) -> [UInt8] {
        precondition(!entries.isEmpty && entries.count < 65_536, "an icon holds 1 to 65535 images")
        let payloads = entries.map { $0.png ?? bmp($0.image) }
        var out: [UInt8] = []
        out += le16(0) + le16(1) + le16(entries.count)
        var offset = 6 + 16 * entries.count
        for (entry, payload) in zip(entries, payloads) {
            precondition((1...256).contains(entry.image.width) && (1...256).contains(entry.image.height), "icon images are 1 to 256 pixels a side")
            // 0 stands for 256.
            out.append(UInt8(entry.image.width & 0xFF))
            out.append(UInt8(entry.image.height & 0xFF))
            out += [0, 0]                  // no palette, reserved
            out += le16(1) + le16(32)      // colour planes, bits per pixel
            out += le32(payload.count) + le32(offset)
            offset += payload.count
        }
        for payload in payloads { out += payload }
        return out
    }

    /// The BMP form of an image: BITMAPINFOHEADER, BGRA rows bottom-up, AND mask.
    static func bmp(_ image: Image) -> [UInt8] {
        let width = image.width, height = image.height
        let rgba = image.rgba8
        let maskRow = ((width + 31) / 32) * 4
        let pixelBytes = width * height * 4
        var out: [UInt8] = []
        out.reserveCapacity(40 + pixelBytes + maskRow * height)
        out += le32(40) + le32(width) + le32(2 * height)   // header size, width, XOR + AND heights
        out += le16(1) + le16(32)                          // planes, bits per pixel
        out += le32(0) + le32(pixelBytes + maskRow * height) // BI_RGB, image size
        out += le32(0) + le32(0) + le32(0) + le32(0)       // resolution, palette: none
        for y in stride(from: height - 1, through: 0, by: -1) {
            for x in 0..<width {
                let i = (y * width + x) * 4
                out += [rgba[i + 2], rgba[i + 1], rgba[i], rgba[i + 3]]
            }
        }
        for y in stride(from: height - 1, through: 0, by: -1) {
            var row = [UInt8](repeating: 0, count: maskRow)
            for x in 0..<width where rgba[(y * width + x) * 4 + 3] == 0 {
                row[x / 8] |= 0x80 >> UInt8(x % 8)
            }
            out += row
        }
        return out
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
}
