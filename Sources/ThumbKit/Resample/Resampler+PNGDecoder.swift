extension Resampler {
    /// Resamples a PNG straight from its decoder, which must not have been read yet: streamed row by
    /// row (`resample(_:to:height:region:)` with the decoder as `RowSource`) when the file is not
    /// interlaced, decoded whole first when it is (Adam7 rows are final only after the last pass).
    public func resample(_ decoder: PNGDecoder, to width: Int, height: Int,
                         region: Rect? = nil) throws(PNGError) -> Bitmap {
        if decoder.info.interlaced {
            return resample(try decoder.decodeImage(), to: width, height: height, region: region)
        }
        var source = decoder
        return try resample(&source, to: width, height: height, region: region)
    }
}
