/// One set of outputs a batch makes: which sources (its inputs), what of each (its
/// `ThumbnailSet`), and where the files go and how they are named. A command line run is one
/// group; a project file (`thumbgen build`) has one per entry of its `thumbnails` list, and a
/// source several groups share is decoded once for all of them.
package struct OutputGroup: Sendable {
    /// The group's name in messages: `thumbnails[1]` in a project, empty on the command line.
    package var name: String
    /// Files and directories, in the order given; directories are walked recursively.
    package var inputs: [FilePath]
    /// Outputs mirror each source's path below this directory (`--base`); nil: below its input
    /// (a file input: just its name). Every input must lie inside it.
    package var base: FilePath?
    /// Where the outputs go; created when missing.
    package var outputDirectory: FilePath
    /// How outputs are named.
    package var naming: OutputNaming
    /// What to make of the twins of a shot (`IMG_0001.CR2` beside `IMG_0001.JPG`): by default
    /// one thumbnail, from the JPEG.
    package var pairing: SourcePairing = .preferJPEG
    /// What to make of each source.
    package var thumbnailSet: ThumbnailSet
    /// The settings every output records (the set's canonical description, unless a caller
    /// describes its own renderer's settings); outputs recorded with others are rebuilt.
    package var settings: String
    /// For a group that makes app and web icons (`thumbgen icons`): the set, whose files replace
    /// the thumbnails. Its one input is the master; its files go below `outputDirectory` as the
    /// set names them, and `settings` is the set's description.
    package var iconSet: IconSet?

    /// A group with the given members; `settings` defaults to the set's description.
    package init(name: String = "", inputs: [FilePath], base: FilePath? = nil, outputDirectory: FilePath, naming: OutputNaming,
                 thumbnailSet: ThumbnailSet, settings: String? = nil) {
        self.name = name
        self.inputs = inputs
        self.base = base
        self.outputDirectory = outputDirectory
        self.naming = naming
        self.thumbnailSet = thumbnailSet
        self.settings = settings ?? thumbnailSet.canonicalDescription
    }

    /// A group making the icon set of the master at `input` into `outputDirectory`.
    package init(name: String = "", iconsOf input: FilePath, set: IconSet, outputDirectory: FilePath) {
        self.init(name: name, inputs: [input], outputDirectory: outputDirectory, naming: try! OutputNaming(),
                  thumbnailSet: ThumbnailSet(options: ThumbnailOptions()), settings: set.canonicalDescription)
        iconSet = set
    }

    /// The variants of a source of this upright size (`nil`: not known, which only a set
    /// without widths can name outputs without).
    func variants(sourceSize: (width: Int, height: Int)?) -> [ThumbnailVariant]? {
        guard thumbnailSet.widths.isEmpty else {
            guard let size = sourceSize else { return nil }
            return thumbnailSet.plannedVariants(sourceWidth: size.width, sourceHeight: size.height).map(\.variant)
        }
        return thumbnailSet.scales.flatMap { scale in thumbnailSet.formats.map { ThumbnailVariant(scale: scale, format: $0) } }
    }

    /// True when naming a source's outputs needs its size (a set of widths).
    var needsSourceSize: Bool { !thumbnailSet.widths.isEmpty }
}
