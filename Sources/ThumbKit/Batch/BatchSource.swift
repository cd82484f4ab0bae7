/// One source image handed to the renderer, with what to make of it for each group it is in.
package struct BatchSource: Sendable {
    /// What one group asks of the source.
    package struct Request: Sendable {
        /// What to make, as the group describes it (during `check`, rebuilt from the recorded
        /// settings where they are thumbgen's own; a caller with settings of its own gets a default
        /// set and reads `settings`).
        package var thumbnailSet: ThumbnailSet
        /// The settings as recorded in the manifest: the group's during a run, the entry's during
        /// `check`.
        package var settings: String
        /// The outputs to return, one `RenderedOutput` each, labelled with these very variants.
        package var variants: [ThumbnailVariant]
        /// For an icon group: the set (every file of it is returned, labelled with its path), and
        /// the folder its files go to (a site.webmanifest there is merged into).
        package var iconSet: IconSet?
        package var iconOutputDirectory: FilePath?

        package init(thumbnailSet: ThumbnailSet, settings: String, variants: [ThumbnailVariant]) {
            self.thumbnailSet = thumbnailSet
            self.settings = settings
            self.variants = variants
        }
    }

    /// The path the source was found at (for messages; decode `image`, which may reach the file
    /// by another name).
    package let path: FilePath
    /// The image to render. During a run it reads the very file that was hashed for the
    /// manifest (`SourceFile`), so the recorded hash describes what was rendered.
    package let image: ImageSource
    /// One request per group, in the order of the source's memberships.
    package let requests: [Request]
    /// The star rating known from outside the file (sidecar, ratings file), for runs that draw
    /// rating badges: the run's own lookup, or during `check` the rating the manifest recorded
    /// from outside. Nil when the run draws no badges.
    package let externalRating: RatingLookup?

    /// A source as a worker hands it to the renderer (or a test does).
    package init(path: FilePath, image: ImageSource, requests: [Request], externalRating: RatingLookup? = nil) {
        self.path = path
        self.image = image
        self.requests = requests
        self.externalRating = externalRating
    }
}
