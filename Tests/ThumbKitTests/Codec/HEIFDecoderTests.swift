import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// HEIF (HEIC and AVIF) through the front door: transforms, colour, depth, and hostile files (its
/// pixels against pillow-heif's and libavif's, and damaged copies, in `FormatConformanceTests`).
@Suite struct HEIFDecoderTests {
    static let files = ["opaque.heic", "opaque-420.heic", "alpha.heic", "premultiplied.heic", "irot-90.heic", "icc.heic", "nclx-p3.heic",
                        "10bit.heic", "thumbnail.heic", "opaque.avif", "opaque-420.avif", "alpha.avif", "10bit.avif"]

    static func bytes(_ name: String) -> [UInt8] { Fixtures.bytes("heif/" + name) }

    static func header(_ file: String) throws -> ImageHeader { try ImageSource.bytes(bytes(file)).header() }

    @Test func headersSayWhatTheFilesAre() throws {
        #expect(try Self.header("opaque.heic").description == "64x48, heif heic, 8-bit, still, opaque")
        #expect(try Self.header("opaque.avif").description == "64x48, heif avif, 8-bit, still, opaque")
        #expect(try Self.header("alpha.avif").hasAlpha && Self.header("alpha.heic").hasAlpha)
        #expect(try !Self.header("opaque.heic").hasAlpha)
        #expect(try Self.header("10bit.heic").bitDepth == 10 && Self.header("10bit.avif").bitDepth == 10)
        #expect(try Self.header("thumbnail.heic").details == .heif(brand: "heic", images: 1, thumbnails: 1))
        #expect(try Self.header("opaque.heic").colorSource == .sRGB)
        #expect(try Self.header("icc.heic").colorSource == .iccProfile(Self.bytes("icc.icc")))
        for file in Self.files {
            #expect(try ImageSource.bytes(Self.bytes(file)).format() == .heif, "\(file)")
        }
        // An MP4's ftyp box is no HEIF.
        #expect(ImageFormat.detect([0, 0, 0, 0x18] + Array("ftypisom".utf8)) == nil)
    }

    /// libheif applies the irot property: the header gives the displayed size, upright, and the
    /// orientation left to apply is none, so `--no-rotate` gives the same upright image (HEIF's
    /// transforms are part of the image, not metadata).
    @Test func transformsAreAppliedOnceWhetherOrNotRotating() throws {
        let header = try Self.header("irot-90.heic")
        #expect(header.orientation == .topLeft && header.width == 48 && header.height == 64)
        let stored = try Self.header("opaque.heic")
        #expect(stored.width == 64 && stored.height == 48)
        for autoRotate in [true, false] {
            var options = ThumbnailOptions(size: ThumbnailSize(width: 30, height: 30))
            options.autoRotate = autoRotate
            let thumbnail = try Thumbnailer(options: options).thumbnails(of: .file(Fixtures.path("heif/irot-90.heic")))
            #expect(thumbnail[0].image.width == 23 && thumbnail[0].image.height == 30, "autoRotate \(autoRotate)")
        }
        // The rotated file's pixels are the unrotated one's turned 90° anticlockwise: its top-left
        // pixel is the top-right one of the original.
        let turned = try ImageSource.bytes(Self.bytes("irot-90.heic")).decodeAsStored().rgba8
        let original = try ImageSource.bytes(Self.bytes("opaque.heic")).decodeAsStored().rgba8
        #expect(Array(turned[0..<4]) == Array(original[63 * 4..<64 * 4]))
    }

    /// More than 8 bits come out as 16-bit samples that use the levels between the 8-bit ones.
    @Test(arguments: ["10bit.heic", "10bit.avif"])
    func deepImagesKeepTheirPrecision(file: String) throws {
        let image = try ImageSource.bytes(Self.bytes(file)).decodeAsStored()
        guard case .sixteen(let samples) = image.samples else {
            Issue.record("\(file) decoded at 8 bits")
            return
        }
        #expect(samples.contains { $0 % 257 != 0 })
        #expect(samples.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 65535 })
    }

    @Test func opaqueImagesHaveOpaqueAlpha() throws {
        for file in ["opaque.heic", "opaque-420.avif"] {
            let samples = try ImageSource.bytes(Self.bytes(file)).decodeAsStored().rgba8
            #expect(stride(from: 3, to: samples.count, by: 4).allSatisfy { samples[$0] == 255 }, "\(file)")
        }
        let alpha = try ImageSource.bytes(Self.bytes("alpha.heic")).decodeAsStored().rgba8
        #expect(stride(from: 3, to: alpha.count, by: 4).contains { alpha[$0] < 16 })
    }

    /// An nclx colr box with Display P3 primaries becomes a profile that converts to sRGB: grays
    /// stay gray, a P3 red comes out more saturated in sRGB's smaller gamut.
    @Test func displayP3PrimariesAreConverted() throws {
        let source = try Self.header("nclx-p3.heic").colorSource
        guard case .iccProfile = source else {
            Issue.record("no profile for P3 primaries: \(source)")
            return
        }
        #expect(!source.isSRGB)
        let pixels = Image(width: 2, height: 1, rgba8: [128, 128, 128, 255, 200, 60, 60, 255])
        let converted = ColorManagement.convertToSRGB(pixels, from: source)
        #expect(converted.warning == nil)
        let out = converted.image.rgba8
        #expect(out[0...2].allSatisfy { abs(Int($0) - 128) <= 1 })
        #expect(out[4] > 210 && out[5] < 60 && out[6] < 60)
        #expect(try DecodeTestPlan.plan(Self.bytes("nclx-p3.heic")).colour == .toSRGB(source))
        #expect(try DecodeTestPlan.needsNoTransform(Self.bytes("opaque.heic")))
    }

    /// The profile made from nclx primaries carries no creation time (lcms2 stamps the time a
    /// profile is made): read a second apart, the file gives the same profile, so a thumbnail that
    /// keeps it (`--keep-profile`) has the same bytes on every run.
    @Test func theProfileMadeFromPrimariesIsTheSameEveryTime() throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 16, height: 16), keepProfile: true))
        let read = { () throws -> (profile: [UInt8]?, thumbnail: [UInt8]) in
            guard case .iccProfile(let profile) = try Self.header("nclx-p3.heic").colorSource else { return (nil, []) }
            return (profile, try thumbnailer.thumbnails(of: .bytes(Self.bytes("nclx-p3.heic")))[0].bytes)
        }
        let once = try read()
        let first = try #require(once.profile, "no profile for P3 primaries")
        #expect(first.count > 128 && first[24..<36].allSatisfy { $0 == 0 }, "the header's dateTimeNumber: \(Array(first[24..<36]))")
        Thread.sleep(forTimeInterval: 1.1)
        let again = try read()
        #expect(again.profile == first)
        #expect(again.thumbnail == once.thumbnail, "the thumbnail that keeps the profile")
    }

    /// A colr box with nclx values H.273 does not define (colour primaries 63756) is ignored, as
    /// if absent. libheif 1.15 allocates the profile before it fails on such values, and leaves it
    /// to the caller: `make fuzz` found CLibHEIF leaking it, and `make sanitize` runs this test under
    /// LeakSanitizer.
    /// Its HEVC data is damaged too: libde265's reason, now that its warnings are errors.
    @Test func undefinedNCLXValuesAreIgnoredAndFreed() throws {
        let path = Fixtures.path("fuzz-findings/heif-nclx-leak.heic")
        let header = try ImageSource.file(path).header()
        #expect(header.colorSource == .sRGB)
        #expect(throws: DecodeError.corrupt(.heif, reason: "CTB outside of image area (concealing stream error...)")) {
            _ = try ImageSource.file(path).decodeAsStored()
        }
    }

    @Test func nclxValuesMapToColourSources() {
        #expect(NCLXColour(primaries: 1, transfer: 13).colorSource.source == .sRGB)
        #expect(NCLXColour(primaries: 2, transfer: 2).colorSource.warning == nil)
        #expect(NCLXColour(primaries: 3, transfer: 13).colorSource.warning == "unknown nclx colour primaries 3, taken as sRGB")
        let hdr = NCLXColour(primaries: 9, transfer: 16).colorSource
        #expect(hdr.warning == "HDR transfer characteristics 16 shown without tone mapping")
        guard case .iccProfile = hdr.source else {
            Issue.record("no profile for BT.2020 primaries")
            return
        }
    }

    // MARK: hostile files

    /// The ispe boxes of `file`, rewritten to claim `width` x `height`.
    static func lying(width: UInt32, height: UInt32, file: String = "opaque.heic") -> [UInt8] {
        var data = bytes(file)
        let ispe = Array("ispe".utf8)
        var found = 0
        for i in 0..<(data.count - 16) where Array(data[i..<i + 4]) == ispe {
            // FullBox version and flags, then width and height, big-endian.
            let sizes = [width, height].flatMap { value in (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
            data.replaceSubrange(i + 8..<i + 16, with: sizes)
            found += 1
        }
        precondition(found > 0, "no ispe box")
        return data
    }

    /// A size in the header above the limits is refused from the header, before libheif decodes;
    /// above libheif's own limit (32768 a side), libheif refuses it, in its words.
    @Test func lyingSizesAreRefusedFromTheHeader() throws {
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .pixels, width: 30_000, height: 30_000,
                                                                  actual: 900_000_000, allowed: 250_000_000))) {
            _ = try ImageSource.bytes(Self.lying(width: 30_000, height: 30_000)).header()
        }
        let huge = DecodeErrorProbe.error(of: Self.lying(width: 100_000, height: 100_000))
        guard case .corrupt(.heif, let reason)? = huge else {
            Issue.record("100000x100000: \(String(describing: huge))")
            return
        }
        #expect(reason.contains("security limit exceeded"), "\(reason)")
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .pixels, width: 64, height: 48, actual: 3072, allowed: 3000))) {
            _ = try ImageSource.file(Fixtures.path("heif/opaque.heic")).header(limits: DecodeLimits(maxPixels: 3000))
        }
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .dimension, width: 64, height: 48, actual: 64, allowed: 50))) {
            _ = try ImageSource.file(Fixtures.path("heif/opaque.heic")).header(limits: DecodeLimits(maxDimension: 50))
        }
        // 8000x8000 is within the pixel limit but not a 256 MiB budget: the memory plan refuses it
        // before anything is decoded (decoding would fail: the coded image is 64x48).
        var options = ThumbnailOptions(size: ThumbnailSize(width: 64, height: 64))
        options.limits.maxMemory = 256 << 20
        #expect {
            _ = try Thumbnailer(options: options).thumbnails(of: .bytes(Self.lying(width: 8000, height: 8000)))
        } throws: { error in
            guard case .decode(.limitExceeded(let limit)) = error as? ThumbnailError else { return false }
            return limit.limit == .memory && limit.width == 8000
        }
    }

    /// A header that promises another size than the coded image has is an error, not a buffer
    /// overrun.
    @Test func sizesThatDisagreeWithTheCodedImageFail() {
        for (width, height) in [(32, 24), (128, 96)] {
            let error = DecodeErrorProbe.error(of: Self.lying(width: UInt32(width), height: UInt32(height)))
            guard case .corrupt(.heif, _)? = error else {
                Issue.record("\(width)x\(height): \(String(describing: error))")
                continue
            }
        }
    }

    /// A coded frame larger than its ispe box says is refused by the decoder plugin (dav1d's frame
    /// limit, libde265's allocator), under the pixel limit, before the frame is allocated: the
    /// header's size passed the limit, the coded one does not.
    @Test(arguments: ["opaque.avif", "opaque.heic"])
    func framesAboveThePixelLimitAreRefusedByTheDecoder(file: String) throws {
        let lying = Self.lying(width: 32, height: 24, file: file)
        let limits = DecodeLimits(maxPixels: 1000)
        #expect(try ImageSource.bytes(lying).header(limits: limits).width == 32)
        var error: DecodeError?
        do { _ = try ImageSource.bytes(lying).decodeAsStored(limits: limits) } catch let thrown { error = thrown }
        guard case .corrupt(.heif, let reason)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        // heif-enc codes the HEIC as a grid of one 64x64 tile, cropped to 64x48.
        let coded = file.hasSuffix(".heic") ? "the HEVC stream's frame is 64x64, above the pixel limit of 1000" : "64x48"
        #expect(reason.contains(coded) && reason.contains("1000"), "\(reason)")
        // Without the limit the frame decodes, and disagrees with the header.
        guard case .corrupt(.heif, let other)? = DecodeErrorProbe.error(of: lying) else {
            Issue.record("decoded")
            return
        }
        #expect(other == "decoded image is 64x48, the header says 32x24", "\(other)")
    }

    /// Damaged HEVC that libde265 decodes only in part, without any error (found by `make fuzz`):
    /// the samples nobody decoded came from libde265's unzeroed frames, so decoding the file
    /// and its bytes in one process gave different pixels. CLibHEIF's libde265 plugin zeroes them:
    /// every decode is the same.
    @Test(arguments: ["heif-libde265-uninitialised.heic", "heif-file-bytes-differ.heic"])
    func partlyDecodedHEVCIsTheSameEveryTime(file: String) throws {
        let path = Fixtures.path("fuzz-findings/" + file)
        let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        let first = try ImageSource.file(path).decodeAsStored()
        for round in 0..<4 {
            // Other decodes in between leave other data in the freed frames.
            _ = try ImageSource.bytes(Self.bytes(round % 2 == 0 ? "opaque.heic" : "10bit.heic")).decodeAsStored()
            let again = try (round % 2 == 0 ? ImageSource.bytes(bytes) : ImageSource.file(path)).decodeAsStored()
            #expect(again == first, "\(file), round \(round)")
        }
    }

    /// HEVC damage libde265 notices is an error with libde265's reason (libheif's own plugin
    /// dropped its warnings and handed out the picture as far as it went).
    @Test func damagedHEVCFailsWithLibde265sReason() {
        var data = Self.bytes("opaque.heic")
        let mdat = (0..<data.count - 4).first { Array(data[$0..<$0 + 4]) == Array("mdat".utf8) }!
        for i in mdat + 40..<mdat + 76 { data[i] = 0xFF }
        guard case .corrupt(.heif, let reason)? = DecodeErrorProbe.error(of: data) else {
            Issue.record("decoded")
            return
        }
        #expect(reason == "CTB outside of image area (concealing stream error...)", "\(reason)")
    }

    @Test func notAnImageWithAnFtypBox() {
        let ftyp: [UInt8] = [0, 0, 0, 0x14] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1".utf8)
        // A box that fits in the file but no meta box: libheif's "no 'meta' box".
        let free: [UInt8] = [0, 0, 0, 0x10] + Array("free".utf8) + Array(repeating: 0, count: 8)
        let error = DecodeErrorProbe.error(of: ftyp + free)
        guard case .corrupt(.heif, let reason)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason == "invalid input: No 'meta' box", "\(reason)")
        // Text after the ftyp box reads as a box that claims more bytes than the file has.
        #expect(DecodeErrorProbe.error(of: ftyp + Array("this is not a meta box at all".utf8)) == .truncated)
        #expect(DecodeErrorProbe.error(of: Array(ftyp.prefix(10))) == .truncated)
        #expect(DecodeErrorProbe.error(of: ftyp) != nil)
    }
}
