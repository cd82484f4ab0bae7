/// One source image handed to the renderer.
package struct BatchSource: Sendable {
    /// The path the source was found at (for messages; decode `image`, which may reach the file
    /// by another name).
    package let path: FilePath
    /// The image to render. During a run it reads the very file that was hashed for the
    /// manifest (`SourceFile`), so the recorded hash describes what was rendered.
    package let image: ImageSource
    /// The scales to render, ascending; return one `RenderedOutput` per scale, labelled with
    /// `OutputNaming.suffix(forScale:)`.
    package let scales: [Int]
    /// The rendering settings to use, as the caller described them: the run's own during a run,
    /// the ones recorded in the manifest during `check`.
    package let settings: String
    /// The star rating known from outside the file (sidecar, ratings file), for runs that draw
    /// rating badges: the run's own lookup, or during `check` the rating the manifest recorded
    /// from outside. Nil when the run draws no badges.
    package let externalRating: RatingLookup?

    /// A source as a worker hands it to the renderer (or a test does).
    package init(path: FilePath, image: ImageSource, scales: [Int], settings: String = "", externalRating: RatingLookup? = nil) {
        self.path = path
        self.image = image
        self.scales = scales
        self.settings = settings
        self.externalRating = externalRating
    }
}
