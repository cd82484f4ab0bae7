/// Computes a source's placeholders from its decoded image (upright, in sRGB unless the profile
/// is kept, reduced on load where the set's largest output allowed it).
package enum Placeholders {
    /// The value of each placeholder, by kind (`Placeholder.name`).
    package static func compute(_ placeholders: [Placeholder], of image: Image) throws(EncodeError) -> [String: String] {
        var values: [String: String] = [:]
        for placeholder in placeholders {
            switch placeholder {
            case .blurhash(let hash):
                values[placeholder.name] = hash.hash(of: image)
            case .color:
                values[placeholder.name] = color(of: image)
            case .thumbhash:
                let small = fitted(image, longSide: ThumbHash.maximumSide)
                values[placeholder.name] = Base64.encode(ThumbHash.hash(width: small.width, height: small.height, rgba: small.rgba8))
            case .lqip(let side):
                let small = fitted(image, longSide: side)
                let bytes = try WebPEncoder(quality: Placeholder.lqipQuality).encode(small)
                values[placeholder.name] = "data:image/webp;base64," + Base64.encode(bytes)
            }
        }
        return values
    }

    /// The mean colour in linear light (BlurHash's DC term), as sRGB `#rrggbb`.
    static func color(of image: Image) -> String {
        let (r, g, b) = BlurHash.meanLinear(of: image)
        let hex = Array("0123456789abcdef")
        var out = "#"
        for v in [r, g, b] {
            let byte = Int(SRGB.byte(fromLinear: Float(max(0, min(1, v)))))
            out.append(hex[byte >> 4])
            out.append(hex[byte & 15])
        }
        return out
    }

    /// The image fitted inside `longSide`×`longSide` by thumbgen's own resampler (Lanczos-3 in
    /// linear light, as thumbnails are made); an image already that small is used as it is.
    static func fitted(_ image: Image, longSide: Int) -> Image {
        let long = max(image.width, image.height)
        guard long > longSide else { return image.converted8() }
        let scale = Double(longSide) / Double(long)
        let width = max(1, Int((Double(image.width) * scale).rounded()))
        let height = max(1, Int((Double(image.height) * scale).rounded()))
        return Image(Resampler(kernel: .lanczos3, light: .linear).resample(image, to: width, height: height))
    }
}
