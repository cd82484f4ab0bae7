/// What an image file says about itself before any pixel is decoded, in the same terms for every
/// format: what `thumbgen info` prints and what a decode plan is made from.
public struct ImageHeader: Sendable, Hashable, CustomStringConvertible {
    /// How the pixels are laid out in the file, which decides whether they can be streamed.
    package enum ScanOrder: String, Sendable, Hashable {
        /// Rows top to bottom, each final when read: can be streamed row by row.
        case sequential
        /// PNG's Adam7: rows are final only after the last pass, so the image is decoded whole.
        case interlaced
        /// Progressive JPEG: libjpeg buffers the coefficients, then hands out final rows.
        case progressive
    }

    /// What only one format has.
    package enum Details: Sendable, Hashable {
        /// PNG: the colour type in IHDR.
        case png(colorType: PNGColorType)
        /// JPEG: the stored colour space, its number of components, and whether an Adobe APP14
        /// marker is present (for CMYK it means the samples are stored inverted, 255 = no ink).
        case jpeg(colorSpace: JPEGColorSpace, components: Int, adobeMarker: Bool)
        /// WebP: lossless (VP8L) or lossy (VP8) first frame, and the frames of an animation (1
        /// for a still image; an animation is thumbnailed from its first frame).
        case webp(lossless: Bool, frames: Int)
        /// GIF: palette indexes; the first image is thumbnailed.
        case gif
        /// TIFF: the first page's photometric interpretation ("rgb", "cmyk", …), samples per pixel
        /// and whether it is stored in tiles (else strips).
        case tiff(photometric: String, samples: Int, tiled: Bool)
        /// HEIF: the `ftyp` major brand ("heic", "avif", "mif1", …), the top-level images (the
        /// primary one is thumbnailed) and the thumbnail images stored for the primary one.
        case heif(brand: String, images: Int, thumbnails: Int)
        /// Camera RAW: its kind ("DNG", "CR3", "RAF", …) and where the JPEG preview that is read
        /// was found ("SubIFD 1", "PRVW box", "RAF header"); the stored size is the preview's.
        case raw(kind: String, preview: String)
    }

    /// The file's format.
    public let format: ImageFormat
    /// Width in pixels as stored, before the orientation is applied.
    public let storedWidth: Int
    /// Height in pixels as stored.
    public let storedHeight: Int
    /// How the stored image must be turned to be upright (EXIF orientation; `.topLeft` when the
    /// file has none or the tag is unreadable).
    public let orientation: Orientation
    /// Bits per sample as stored: 1, 2, 4, 8 or 16.
    public let bitDepth: Int
    /// True when pixels can be transparent: an alpha channel, or a PNG `tRNS` chunk.
    public let hasAlpha: Bool
    /// What colours the samples are in, as the file declares them.
    package let colorSource: ColorSource
    /// How the pixels are laid out.
    package let scanOrder: ScanOrder
    /// What only this format has.
    package let details: Details
    /// The metadata read with the header that is not about pixels (XMP, EXIF), as stored.
    package let metadata: EmbeddedMetadata

    /// A header as a decoder reads it.
    package init(format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: Orientation, bitDepth: Int,
                hasAlpha: Bool, colorSource: ColorSource, scanOrder: ScanOrder, details: Details,
                metadata: EmbeddedMetadata = EmbeddedMetadata()) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.colorSource = colorSource
        self.scanOrder = scanOrder
        self.details = details
        self.metadata = metadata
    }

    /// Width of the upright image: `storedHeight` for orientations 5–8.
    public var width: Int { orientation.uprightSize(width: storedWidth, height: storedHeight).width }
    /// Height of the upright image.
    public var height: Int { orientation.uprightSize(width: storedWidth, height: storedHeight).height }

    /// One line, as `thumbgen info` prints it: `WxH, COLOUR, N-bit, LAYOUT, transparency|opaque`,
    /// the size as stored, e.g. "640x480, rgba, 8-bit, not interlaced, transparency" or
    /// "4000x3000, jpeg ycbcr, 8-bit, progressive, opaque".
    public var description: String {
        let colour: String
        let layout: String
        switch details {
        case .png(let colorType):
            colour = colorType.description
            layout = scanOrder == .interlaced ? "interlaced" : "not interlaced"
        case .jpeg(let colorSpace, _, _):
            colour = "jpeg \(colorSpace)"
            layout = scanOrder == .progressive ? "progressive" : "baseline"
        case .webp(let lossless, let frames):
            colour = lossless ? "webp lossless" : "webp lossy"
            layout = frames > 1 ? "animated, \(frames) frames" : "still"
        case .gif:
            colour = "gif palette"
            layout = scanOrder == .interlaced ? "interlaced" : "not interlaced"
        case .tiff(let photometric, _, let tiled):
            colour = "tiff \(photometric)"
            layout = tiled ? "tiles" : "strips"
        case .heif(let brand, let images, _):
            colour = "heif \(brand)"
            layout = images > 1 ? "primary of \(images) images" : "still"
        case .raw(let kind, let preview):
            colour = "raw \(kind)"
            layout = "preview: JPEG \(storedWidth)x\(storedHeight) from \(preview)"
        }
        return "\(storedWidth)x\(storedHeight), \(colour), \(bitDepth)-bit, \(layout), " + (hasAlpha ? "transparency" : "opaque")
    }

    /// The shape of `description` for a format's files, in words (what `thumbgen info --help`
    /// lists), e.g. "WIDTHxHEIGHT, gif palette, 8-bit, interlaced|not interlaced, ...".
    package static func descriptionShape(of format: ImageFormat) -> String {
        switch format {
        case .png: return "WIDTHxHEIGHT, COLOUR-TYPE, N-bit, interlaced|not interlaced, transparency|opaque"
        case .jpeg: return "WIDTHxHEIGHT, jpeg COLOUR-SPACE, 8-bit, progressive|baseline, opaque"
        case .webp: return "WIDTHxHEIGHT, webp lossy|lossless, 8-bit, still|animated, N frames, ..."
        case .gif: return "WIDTHxHEIGHT, gif palette, 8-bit, interlaced|not interlaced, ..."
        case .tiff: return "WIDTHxHEIGHT, tiff PHOTOMETRIC, N-bit, strips|tiles, ..."
        case .heif: return "WIDTHxHEIGHT, heif BRAND, N-bit, still|primary of N images, ..."
        case .raw: return "WIDTHxHEIGHT, raw KIND, 8-bit, preview: JPEG WIDTHxHEIGHT from WHERE, opaque"
        }
    }

    /// The orientation as `thumbgen info` appends it, nil for an upright image: the EXIF/TIFF
    /// value, its name and that it is applied, e.g. "orientation 6 (rotate 90° clockwise),
    /// applied". A HEIF file's own transforms are applied by libheif and not reported as an
    /// orientation; an EXIF orientation inside it is named as not applied (it would turn the
    /// image a second time).
    public var orientationSummary: String? {
        if orientation != .topLeft { return "orientation \(orientation.rawValue) (\(orientation.name)), applied" }
        if format == .heif, let stored = metadata.exif.flatMap({ ExifReader(tiff: $0)?.orientation }), stored != .topLeft {
            return "orientation \(stored.rawValue) (\(stored.name)) in EXIF, not applied (HEIF transforms are)"
        }
        return nil
    }
}

/// PNG colour types, as stored in IHDR.
package enum PNGColorType: Int, Sendable, Hashable, CustomStringConvertible {
    /// Gray, 1–16 bits.
    case gray = 0
    /// RGB, 8 or 16 bits.
    case rgb = 2
    /// Palette indexes, 1–8 bits.
    case palette = 3
    /// Gray with alpha.
    case grayAlpha = 4
    /// RGB with alpha.
    case rgba = 6

    /// The name `thumbgen info` prints, e.g. "gray+alpha".
    package var description: String {
        switch self {
        case .gray: return "gray"
        case .rgb: return "rgb"
        case .palette: return "palette"
        case .grayAlpha: return "gray+alpha"
        case .rgba: return "rgba"
        }
    }
}

/// The colour space of a JPEG's stored samples (libjpeg's `jpeg_color_space`).
package enum JPEGColorSpace: String, Sendable, Hashable, CustomStringConvertible {
    /// One luma channel.
    case gray
    /// RGB stored as is (an Adobe marker with transform 0).
    case rgb
    /// The usual photo encoding, converted to RGB while decoding.
    case yCbCr = "ycbcr"
    /// Four inks, possibly inverted (see `ImageHeader.Details.jpeg`'s `adobeMarker`).
    case cmyk
    /// CMYK whose C, M, Y are stored as YCbCr (Adobe transform 2).
    case ycck

    /// The lower-case name, e.g. "ycbcr".
    package var description: String { rawValue }

    /// True for CMYK and YCCK.
    var isCMYK: Bool { self == .cmyk || self == .ycck }
}
