import Testing
import ThumbKit

@Suite("ThumbnailSize")
struct ThumbnailSizeTests {
    static let valid: [(String, Int, Int, FitMode, ThumbnailSize.ScaleRule)] = [
        ("256", 256, 256, .inside, .shrinkOnly),
        ("300x200", 300, 200, .inside, .shrinkOnly),
        ("300X200", 300, 200, .inside, .shrinkOnly),
        ("300x200>", 300, 200, .inside, .shrinkOnly),
        ("300x200<", 300, 200, .inside, .enlargeOnly),
        ("300x200!", 300, 200, .fill, .shrinkOnly),
        ("300x200^", 300, 200, .cover, .shrinkOnly),
        ("256x256^<", 256, 256, .cover, .enlargeOnly),
        ("256x256<^", 256, 256, .cover, .enlargeOnly),
        ("64^", 64, 64, .cover, .shrinkOnly),
        ("1x65536", 1, 65536, .inside, .shrinkOnly),
        // vipsthumbnail's and ImageMagick's one-sided boxes.
        ("12x", 12, ThumbnailSize.open, .inside, .shrinkOnly),
        ("x12", ThumbnailSize.open, 12, .inside, .shrinkOnly),
        ("640x<", 640, ThumbnailSize.open, .inside, .enlargeOnly),
    ]

    @Test(arguments: valid)
    func parses(_ text: String, _ w: Int, _ h: Int, _ mode: FitMode, _ scale: ThumbnailSize.ScaleRule) throws {
        let size = try ThumbnailSize(parsing: text)
        #expect(size == ThumbnailSize(width: w, height: h, mode: mode, scale: scale))
        // The canonical spelling parses back to the same size.
        #expect(try ThumbnailSize(parsing: size.description) == size)
    }

    @Test(arguments: ["", "x", "0", "0x10", "10x0", "abc", "12x^", "x12!", "1x2x3", "-5", "+5", " 256", "256 ",
                      "256x256!!", "256x256<>", "256x256^!", "1048577", "99999999999999999999", "２５６", "256x256#", "1.5"])
    func rejects(_ text: String) {
        #expect(throws: ThumbnailSize.ParseError.self) { try ThumbnailSize(parsing: text) }
    }

    @Test func errorMessageNamesTheInput() {
        do {
            _ = try ThumbnailSize(parsing: "12y4")
            Issue.record("accepted 12y4")
        } catch {
            #expect(error.message.hasPrefix("'12y4' is not a thumbnail size"))
        }
    }
}
