/// A `thumbgen.json` project file, read and validated: which folders to thumbnail with which
/// options, where the files go, and which star badge sets to draw. Every mistake is one
/// `ThumbgenConfigError` naming the file and the member
/// (`Sources/App/thumbgen.json: thumbnails[0].size: expected N, WxH, Wx or xH …, got "40y"`).
///
/// The one reader of the file: `thumbgen build`, `thumbgen check`, the SwiftPM build plugin and its
/// step, and the command plugin all read a project through it (the file is compiled into each, as
/// plugins cannot import the package's libraries).
///
/// ```json
/// {
///   "manifest": "thumbgen-manifest.json",
///   "thumbnails": [
///     { "source": "Photos", "output": "public/img", "widths": [320, 640, 1280], "formats": ["webp", "jpeg"] },
///     { "source": "Photos", "size": "40x40", "fit": "cover", "cornerRadius": 8, "scales": [1, 2, 3] }
///   ],
///   "stars": [
///     { "scales": [1, 2, 3], "output": "Ratings" }
///   ]
/// }
/// ```
///
/// Top level: `thumbnails` (array of groups), `stars` (array of badge sets), both optional, and
/// `manifest` (where `thumbgen build` keeps its one manifest, relative to the file; default
/// `thumbgen-manifest.json` beside it).
///
/// A thumbnail group: `source` (required: a folder beside the file, walked recursively in sorted
/// order; outputs mirror paths below it), `output` (the folder the files go to, default
/// `thumbnails`; the build plugin writes into its own work folder instead), and every rendering
/// option of `thumbgen`, named as the option in camelCase (`--corner-radius` is `cornerRadius`,
/// `--no-rotate` is `noRotate`): flags are `true` or `false`, lists (`widths`, `scales`, `formats`
/// for `--format`) are arrays, `quality` a number or `{"webp": 75, "jpeg": 82}`; `pairs`
/// (`prefer-jpeg`, `prefer-raw`, `both`) as `--pairs`, and `%e` in `name`.
///
/// A star badge set: the members of a `thumbgen stars --spec` badge spec — `slots`, `size`,
/// `spacing` (integers), `fill`, `empty`, `outline` (colours; `none` for the last two),
/// `outlineWidth` (number), `fillMode` (`full`, `half`, `precise`), `ratings` (array of numbers),
/// `scales` (array of 1, 2, 3; default `[1]`), `name` (`%r` rating, `%s` plural s; default
/// `%rStar%sSmall`) — plus `half` (boolean: also the half ratings, as `--half`), `spec` (a badge
/// spec file beside the project whose members come first; those given here win) and `output` (the
/// folder `thumbgen build` writes them to, default `stars`).
///
/// Resources of a Swift package are flat (`Bundle.module` has no folders), so for the plugins every
/// output name must be unique across the whole file; a clash is an error naming both members.
struct ThumbgenConfig: Sendable {
    /// One thumbnail group, validated.
    struct ThumbnailGroup: Sendable {
        /// `thumbnails[i]`, for messages.
        var member: String
        /// The source folder, relative to the base directory, without `./` or a trailing slash.
        var source: String
        /// The output folder, relative to the base directory.
        var output = "thumbnails"
        /// The `thumbgen` options the group's members give, in the table's order (the same group
        /// always gives the same arguments, so the build system sees a change only when there is
        /// one).
        var options: [String] = []
        /// The scales, as thumbgen names them (`2`, `1.5`).
        var scales = ["1"]
        /// The widths as given (`320`, `auto`); empty: the box of `size`.
        var widths: [String] = []
        /// The formats' names (`png`, `jpeg`, `webp`, `avif`).
        var formats = ["png"]
        /// The name format without an image extension, and the extension it ended in, if any.
        var name = "%s"
        /// What becomes of the twins of a shot (`IMG_1.CR2` beside `IMG_1.JPG`): `prefer-jpeg`,
        /// `prefer-raw` or `both`, as `--pairs` says.
        var pairs = "prefer-jpeg"
        var nameExtension: String?
        /// The web page members (`webMembers`) given, paths relative to the base directory.
        var web: [String: String] = [:]

        /// The file names one image gives, formats within scales (`photo.webp`, `photo.jpg`,
        /// `photo@2x.webp`, …), for a group without widths: what the build plugin declares.
        func outputNames(forImageNamed fileName: String) -> [String] {
            var stem = Substring(fileName)
            var fileExtension = Substring("")
            if let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
                fileExtension = stem[stem.index(after: dot)...]
                stem = stem[..<dot]
            }
            var base = ""
            var chars = name.makeIterator()
            while let c = chars.next() {
                guard c == "%" else { base.append(c); continue }
                switch chars.next() {
                case "s": base += stem
                case "e": base += fileExtension
                default: base += "%"
                }
            }
            return scales.flatMap { scale in
                formats.map { format in
                    base + (scale == "1" ? "" : "@\(scale)x") + "." + (nameExtension ?? ThumbgenConfig.fileExtensions[format]!)
                }
            }
        }
    }

    /// One star badge set, validated and resolved (spec file merged, `half` applied).
    struct StarSet: Sendable {
        /// `stars[i]`, for messages.
        var member: String
        /// The badge spec file the set started from, relative to the base directory.
        var specFile: String?
        /// The folder `thumbgen build` writes the badges to, relative to the base directory.
        var output = "stars"
        var slots = 5, size = 16, spacing = 1
        var fill = "ff9500"
        var empty = "none"
        var outline = "ff9500"
        var outlineWidth = 1.0
        var fillMode = "full"
        var ratings: [Double] = []
        var scales = [1]
        var name = "%rStar%sSmall"

        /// The badge spec `thumbgen stars --spec` reads: every key, sorted, one per line.
        var specJSON: String {
            let lines = [
                "\"empty\": \(PluginJSON.quoted(empty))",
                "\"fill\": \(PluginJSON.quoted(fill))",
                "\"fillMode\": \(PluginJSON.quoted(fillMode))",
                "\"name\": \(PluginJSON.quoted(name))",
                "\"outline\": \(PluginJSON.quoted(outline))",
                "\"outlineWidth\": \(Self.text(outlineWidth))",
                "\"ratings\": [\(ratings.map(Self.text).joined(separator: ", "))]",
                "\"scales\": [\(scales.map(String.init).joined(separator: ", "))]",
                "\"size\": \(size)",
                "\"slots\": \(slots)",
                "\"spacing\": \(spacing)",
            ]
            return "{\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n}\n"
        }

        /// Every PNG name, ratings in order, then scales: `1StarSmall.png`, `1StarSmall@2x.png`, …
        /// (`thumbgen stars`' naming: `%r` is a whole rating without a point, others as Swift
        /// prints them; `%s` is `s` unless the rating is 1).
        var outputNames: [String] {
            ratings.flatMap { rating in
                let base = Self.baseName(format: name, rating: rating)
                return scales.map { base + ($0 == 1 ? "" : "@\($0)x") + ".png" }
            }
        }

        static func baseName(format: String, rating: Double) -> String {
            var out = ""
            var chars = format.makeIterator()
            while let c = chars.next() {
                guard c == "%", let escape = chars.next() else { out.append(c); continue }
                switch escape {
                case "r": out += text(rating)
                case "s": out += rating == 1 ? "" : "s"
                default: out.append(escape)
                }
            }
            return out
        }

        /// A number as thumbgen writes ratings: `4`, `4.5`.
        static func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
    }

    var thumbnails: [ThumbnailGroup] = []
    var icons: [IconGroup] = []
    var stars: [StarSet] = []
    /// Where `thumbgen build` keeps its manifest, relative to the base directory.
    var manifest = "thumbgen-manifest.json"

    /// Reads and validates a configuration.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the file's name as messages show it (relative to the package, say).
    ///   - readFile: reads a file named relative to the config's folder (for `spec`); nil if it
    ///     cannot be read.
    ///   - isDirectory: whether a path relative to the config's folder is a folder (for `source`).
    init(bytes: [UInt8], file: String, readFile: (String) -> [UInt8]?,
         isDirectory: (String) -> Bool) throws(ThumbgenConfigError) {
        let document: PluginJSON
        do { document = try PluginJSON.parse(bytes) } catch {
            throw ThumbgenConfigError(file: file, member: nil, message: error.message)
        }
        let top = try Members(document, file: file, path: nil, keys: ["icons", "manifest", "stars", "thumbnails"])
        if let manifest = try top.string("manifest") { self.manifest = try Self.relativePath(manifest, top, "manifest") }
        for (i, element) in try top.array("thumbnails").enumerated() {
            thumbnails.append(try Self.group(element, file: file, member: "thumbnails[\(i)]", isDirectory: isDirectory))
        }
        for (i, element) in try top.array("icons").enumerated() {
            icons.append(try Self.iconGroup(element, file: file, member: "icons[\(i)]", readFile: readFile))
        }
        for (i, element) in try top.array("stars").enumerated() {
            stars.append(try Self.starSet(element, file: file, member: "stars[\(i)]", readFile: readFile))
        }
    }

    // MARK: Thumbnail groups

    static let fits = ["inside", "cover", "contain", "fill"]
    static let gravities = ["centre", "center", "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]
    static let kernels = ["lanczos3", "lanczos2", "mitchell", "catrom", "bilinear", "box", "nearest"]
    /// Output formats and the extension each gets.
    static let fileExtensions = ["png": "png", "jpeg": "jpg", "webp": "webp", "avif": "avif"]
    /// Extensions a name may end in, and the format each means.
    static let namedFormats = ["png": "png", "jpg": "jpeg", "jpeg": "jpeg", "webp": "webp", "avif": "avif"]
    /// The largest box side and width (thumbgen's `ThumbnailSize.maximumSide`).
    static let maximumSide = 1 << 20

    /// What a member's value must be.
    enum Kind: Sendable {
        /// `true` gives the flag, `false` leaves it out.
        case flag
        /// One of these strings.
        case choice([String])
        /// A number in the range, written as given.
        case number(ClosedRange<Double>)
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// `RRGGBB` or `RRGGBBAA` (a leading `#` allowed), or `none` when allowed.
        case color(allowsNone: Bool)
        /// A path beside the project file.
        case path
        /// A number of bytes, or a string with a K, M, G or T suffix.
        case bytes
        /// Read by the group itself (size, lists, name, quality).
        case special
    }

    /// A member of a thumbnail group and the `thumbgen` option it stands for.
    struct OptionMember: Sendable {
        let member: String
        let option: String
        let kind: Kind
    }

    /// Every member a thumbnail group may have besides `source` and `output`, in the order their
    /// options are given to thumbgen. A test holds it to `thumbgen --help`'s rendering options.
    static let optionMembers: [OptionMember] = [
        OptionMember(member: "size", option: "size", kind: .special),
        OptionMember(member: "widths", option: "widths", kind: .special),
        OptionMember(member: "fit", option: "fit", kind: .choice(fits)),
        OptionMember(member: "gravity", option: "gravity", kind: .choice(gravities)),
        OptionMember(member: "enlarge", option: "enlarge", kind: .flag),
        OptionMember(member: "cornerRadius", option: "corner-radius", kind: .number(0...100_000)),
        OptionMember(member: "background", option: "background", kind: .color(allowsNone: false)),
        OptionMember(member: "scales", option: "scales", kind: .special),
        OptionMember(member: "strictScales", option: "strict-scales", kind: .flag),
        OptionMember(member: "kernel", option: "kernel", kind: .choice(kernels)),
        OptionMember(member: "noLinear", option: "no-linear", kind: .flag),
        OptionMember(member: "noRotate", option: "no-rotate", kind: .flag),
        OptionMember(member: "noShrinkOnLoad", option: "no-shrink-on-load", kind: .flag),
        OptionMember(member: "allowPartial", option: "allow-partial", kind: .flag),
        OptionMember(member: "keepProfile", option: "keep-profile", kind: .flag),
        OptionMember(member: "colorType", option: "color-type", kind: .choice(["auto", "rgba"])),
        OptionMember(member: "placeholders", option: "placeholder", kind: .special),
        OptionMember(member: "formats", option: "format", kind: .special),
        OptionMember(member: "quality", option: "quality", kind: .special),
        OptionMember(member: "lossless", option: "lossless", kind: .flag),
        OptionMember(member: "progressive", option: "progressive", kind: .flag),
        OptionMember(member: "chroma", option: "chroma", kind: .choice(["420", "444"])),
        OptionMember(member: "effort", option: "effort", kind: .integer(0...9)),
        OptionMember(member: "ratingBadge", option: "rating-badge", kind: .choice(gravities)),
        OptionMember(member: "badgeSize", option: "badge-size", kind: .integer(1...512)),
        OptionMember(member: "badgeMargin", option: "badge-margin", kind: .integer(0...10_000)),
        OptionMember(member: "badgePlate", option: "badge-plate", kind: .color(allowsNone: false)),
        OptionMember(member: "badgeHalo", option: "badge-halo", kind: .color(allowsNone: true)),
        OptionMember(member: "fill", option: "fill", kind: .color(allowsNone: false)),
        OptionMember(member: "empty", option: "empty", kind: .color(allowsNone: true)),
        OptionMember(member: "outline", option: "outline", kind: .color(allowsNone: true)),
        OptionMember(member: "outlineWidth", option: "outline-width", kind: .number(0...512)),
        OptionMember(member: "half", option: "half", kind: .flag),
        OptionMember(member: "fillMode", option: "fill-mode", kind: .choice(["full", "half", "precise"])),
        OptionMember(member: "ratingsFile", option: "ratings-file", kind: .path),
        OptionMember(member: "noSidecars", option: "no-sidecars", kind: .flag),
        OptionMember(member: "maxPixels", option: "max-pixels", kind: .integer(0...Int.max)),
        OptionMember(member: "maxFileBytes", option: "max-file-bytes", kind: .integer(0...Int.max)),
        OptionMember(member: "maxMemory", option: "max-memory", kind: .bytes),
        OptionMember(member: "name", option: "name", kind: .special),
        OptionMember(member: "pairs", option: "pairs", kind: .special),
    ]

    /// The member that stands for `option` (`corner-radius` → `cornerRadius`), for messages that
    /// thumbgen words with its options.
    static func member(forOption option: String) -> String? {
        optionMembers.first { $0.option == option }?.member ?? iconOptionMembers.first { $0.option == option }?.member
            ?? ["platforms": "platforms", "size-source": "sizeSources"][option]
    }

    private static func group(_ value: PluginJSON, file: String, member: String,
                              isDirectory: (String) -> Bool) throws(ThumbgenConfigError) -> ThumbnailGroup {
        let m = try Members(value, file: file, path: member, keys: Set(optionMembers.map(\.member) + ["output", "source"] + webMembers))
        var group = ThumbnailGroup(member: member, source: "")
        guard let source = try m.string("source") else { throw m.error(nil, "missing member \"source\" (a folder beside \(baseName(file)))") }
        group.source = try relativePath(source, m, "source")
        guard isDirectory(group.source) else { throw m.error("source", "no folder \(PluginJSON.quoted(source)) next to \(baseName(file))") }
        if let output = try m.string("output") { group.output = try relativePath(output, m, "output") }

        if let name = try m.string("name") {
            try checkFormat(name, placeholders: "swe", m, "name")
            group.name = name
            if let dot = name.lastIndex(of: "."), dot != name.startIndex,
               namedFormats[String(name[name.index(after: dot)...]).lowercased()] != nil {
                group.nameExtension = String(name[name.index(after: dot)...])
                group.name = String(name[..<dot])
            }
        }
        var options: [String] = []
        for option in optionMembers {
            guard m[option.member] != nil, m[option.member] != .null else { continue }
            switch option.kind {
            case .special:
                options += try special(option, m, &group)
            case .path:
                options += ["--" + option.option, try relativePath(try m.string(option.member)!, m, option.member)]
            default:
                options += try plainArguments(option, m)
            }
        }
        if let format = group.nameExtension.flatMap({ namedFormats[$0.lowercased()] }), m["formats"] == nil {
            group.formats = [format]
        } else if let format = group.nameExtension.flatMap({ namedFormats[$0.lowercased()] }), group.formats != [format] {
            throw m.error("name", "\(PluginJSON.quoted(group.name + "." + group.nameExtension!)) ends in .\(group.nameExtension!), which is not formats \(group.formats.joined(separator: ","))")
        }
        if group.widths.count > 1 && !group.name.contains("%w") && m["name"] != nil {
            throw m.error("name", "\(PluginJSON.quoted(group.name)) has no %w, so the widths would share one name")
        }
        if group.widths.isEmpty && group.name.contains("%w") { throw m.error("name", "%w needs widths") }
        if !group.widths.isEmpty && m["name"] == nil { group.name = "%s-%w" }
        group.options = options
        for (member, path) in [("metadata", true), ("html", true), ("sizes", false), ("urlPrefix", false)] {
            guard let value = try m.string(member) else { continue }
            if member == "sizes" && (value.allSatisfy { $0 == " " } || value.contains("\"")) {
                throw m.error(member, "expected a sizes list such as 100vw, got \(PluginJSON.quoted(value))")
            }
            if path { group.web[member] = try relativePath(value, m, member) } else { group.web[member] = value }
        }
        if group.web["metadata"] == nil && group.web["html"] == nil, let given = ["sizes", "urlPrefix"].first(where: { group.web[$0] != nil }) {
            throw m.error(given, "applies to metadata and html, and neither is given")
        }
        return group
    }

    /// The members of a thumbnail group that describe its web page rather than its images: the
    /// metadata and HTML files (paths beside the project file), `sizes` and `urlPrefix`.
    static let webMembers = ["metadata", "html", "sizes", "urlPrefix"]

    /// A `placeholders` item as `--placeholder` spells it, or nil: thumbhash, color,
    /// blurhash[=XxY] (1-9 each), lqip[=N] (1-64).
    static func placeholderKind(_ text: String) -> String? {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count) {
        case ("thumbhash", 1), ("color", 1): return parts[0]
        case ("blurhash", 1): return "blurhash=4x3"
        case ("lqip", 1): return "lqip=16"
        case ("blurhash", 2):
            let sides = parts[1].split(separator: "x", omittingEmptySubsequences: false).compactMap { Int($0) }
            return sides.count == 2 && sides.allSatisfy({ (1...9).contains($0) }) ? "blurhash=\(sides[0])x\(sides[1])" : nil
        case ("lqip", 2):
            return Int(parts[1]).map { (1...64).contains($0) } == true ? "lqip=\(parts[1])" : nil
        default: return nil
        }
    }

    /// The arguments of a member whose kind says all there is to check: a flag, a choice, a number,
    /// an integer, a colour or bytes (thumbnail and icon groups alike); none for the others.
    private static func plainArguments(_ option: OptionMember, _ m: Members) throws(ThumbgenConfigError) -> [String] {
        switch option.kind {
        case .flag:
            return try m.bool(option.member) == true ? ["--" + option.option] : []
        case .choice(let choices):
            return ["--" + option.option, try m.choice(option.member, choices)!]
        case .number(let range):
            let number = try m.number(option.member)!
            guard range.contains(number.value) else {
                throw m.error(option.member, "expected a number from \(text(range.lowerBound)) to \(text(range.upperBound)), got \(number.text)")
            }
            return ["--" + option.option, number.text]
        case .integer(let range):
            return ["--" + option.option, String(try m.integer(option.member, range)!)]
        case .color(let allowsNone):
            return ["--" + option.option, try m.color(option.member, allowNone: allowsNone)!]
        case .bytes:
            return ["--" + option.option, try m.bytes(option.member)]
        case .path, .special:
            return []
        }
    }

    /// The members a table entry cannot check alone: the box, the lists, the name, the quality.
    private static func special(_ option: OptionMember, _ m: Members, _ group: inout ThumbnailGroup) throws(ThumbgenConfigError) -> [String] {
        let key = option.member
        switch key {
        case "size":
            let value = m[key]!
            let text: String
            switch value {
            case .string(let s): text = s
            case .number(_, let t): text = t
            default: throw m.error(key, "expected \"N\", \"WxH\", \"Wx\" or \"xH\", got \(value.kind)")
            }
            guard validSize(text) else {
                throw m.error(key, "expected N, WxH, Wx or xH with sides 1 to \(maximumSide) (suffix >, <, ! or ^ allowed), got \(value.shown)")
            }
            if m["widths"] != nil { throw m.error(key, "size and widths both give the box; give one") }
            return ["--size", text]
        case "widths":
            let items = try m.list(key) { element, at throws(ThumbgenConfigError) -> String in
                switch element {
                case .string("auto"): return "auto"
                case .number(let d, _) where d == d.rounded() && d >= 1 && d <= Double(maximumSide): return String(Int(d))
                default: throw m.error(at, "expected a width from 1 to \(maximumSide) or \"auto\", got \(element.shown)")
                }
            }
            group.widths = items
            return ["--widths", items.joined(separator: ",")]
        case "scales":
            let items = try m.list(key) { element, at throws(ThumbgenConfigError) -> String in
                guard case .number(let d, _) = element, d > 0, d <= 8, (d * 1000).rounded() == d * 1000 else {
                    throw m.error(at, "expected a scale above 0 and up to 8 with at most three decimals, got \(element.shown)")
                }
                return scaleText(d)
            }
            if let twice = items.first(where: { item in items.filter { $0 == item }.count > 1 }) {
                throw m.error(key, "scale \(twice) appears twice")
            }
            group.scales = items.sorted { Double($0)! < Double($1)! }
            return ["--scales", group.scales.joined(separator: ",")]
        case "pairs":
            // Not a rendering option: how the group's sources are chosen, read by the build.
            group.pairs = try m.choice(key, ["prefer-jpeg", "prefer-raw", "both"])!
            return []
        case "placeholders":
            let items = try m.list(key) { element, at throws(ThumbgenConfigError) -> String in
                guard case .string(let text) = element, let kind = placeholderKind(text.lowercased()) else {
                    throw m.error(at, "expected thumbhash, blurhash, blurhash=XxY (1-9 each), lqip, lqip=N (1-64) or color, got \(element.shown)")
                }
                return kind
            }
            let kinds = items.map { $0.split(separator: "=")[0] }
            if let twice = kinds.first(where: { kind in kinds.filter { $0 == kind }.count > 1 }) {
                throw m.error(key, "\(twice) appears twice")
            }
            return ["--placeholder", items.joined(separator: ",")]
        case "formats":
            let items = try m.list(key) { element, at throws(ThumbgenConfigError) -> String in
                guard case .string(let s) = element, fileExtensions[s.lowercased()] != nil || s.lowercased() == "jpg" else {
                    throw m.error(at, "expected png, jpeg, webp or avif, got \(element.shown)")
                }
                return s.lowercased() == "jpg" ? "jpeg" : s.lowercased()
            }
            if let twice = items.first(where: { item in items.filter { $0 == item }.count > 1 }) {
                throw m.error(key, "\(twice) appears twice")
            }
            group.formats = items
            return ["--format", items.joined(separator: ",")]
        case "quality":
            let value = m[key]!
            switch value {
            case .number(let d, _) where d == d.rounded() && (1...100).contains(d):
                return ["--quality", String(Int(d))]
            case .object(let members) where !members.isEmpty:
                var pairs: [String] = []
                for (format, quality) in members {
                    guard ["jpeg", "webp", "avif"].contains(format) else { throw m.error(key + "." + format, "expected jpeg, webp or avif") }
                    guard case .number(let d, _) = quality, d == d.rounded(), (1...100).contains(d) else {
                        throw m.error(key + "." + format, "expected a quality from 1 to 100, got \(quality.shown)")
                    }
                    pairs.append("\(format)=\(Int(d))")
                }
                return ["--quality", pairs.joined(separator: ",")]
            default:
                throw m.error(key, "expected a quality from 1 to 100, or {\"webp\": 75, \"jpeg\": 82}, got \(value.shown)")
            }
        default:
            // `name` is read before the table (it names the outputs); its option goes last.
            return ["--name", group.name + (group.nameExtension.map { "." + $0 } ?? "")]
        }
    }

    /// N, WxH, Wx or xH with sides 1 to `maximumSide`, then at most one of `>`/`<` and one of `!`/`^`.
    static func validSize(_ text: String) -> Bool {
        var body = Substring(text)
        var seen: Set<Character> = []
        while let last = body.last, "<>!^".contains(last) {
            let pair: Character = "<>".contains(last) ? "<" : "!"
            guard seen.insert(pair).inserted else { return false }
            body = body.dropLast()
        }
        let sides = body.split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(sides.count), !sides.allSatisfy(\.isEmpty) else { return false }
        if sides.contains(where: \.isEmpty) && (sides.count == 1 || seen.contains("!")) { return false }
        return sides.allSatisfy { side in
            side.isEmpty || (side.count <= 8 && side.allSatisfy { $0.isASCII && $0.isNumber } && (1...maximumSide).contains(Int(side)!))
        }
    }

    /// A scale as thumbgen names it: `2`, `1.5`, `0.75`.
    static func scaleText(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        guard thousandths % 1000 != 0 else { return String(thousandths / 1000) }
        var digits = String(thousandths % 1000)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(thousandths / 1000).\(digits)"
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    // MARK: Star sets

    private static let badgeKeys: Set<String> = [
        "empty", "fill", "fillMode", "name", "outline", "outlineWidth", "ratings", "scales", "size", "slots", "spacing",
    ]

    private static func starSet(_ value: PluginJSON, file: String, member: String,
                                readFile: (String) -> [UInt8]?) throws(ThumbgenConfigError) -> StarSet {
        let here = try Members(value, file: file, path: member, keys: badgeKeys.union(["half", "output", "spec"]))
        var set = StarSet(member: member)
        if let output = try here.string("output") { set.output = try relativePath(output, here, "output") }
        // Where each badge member comes from: the spec file first, then thumbgen.json over it.
        var sources: [String: Members] = [:]
        if let spec = try here.string("spec") {
            let path = try relativePath(spec, here, "spec")
            guard let bytes = readFile(path) else { throw here.error("spec", "cannot read \(PluginJSON.quoted(spec))") }
            let specName = directoryPrefix(file) + path
            let document: PluginJSON
            do { document = try PluginJSON.parse(bytes) } catch {
                throw ThumbgenConfigError(file: specName, member: nil, message: error.message)
            }
            let specMembers = try Members(document, file: specName, path: nil, keys: badgeKeys)
            for key in specMembers.keys where specMembers[key] != .null { sources[key] = specMembers }
            set.specFile = path
        }
        for key in here.keys where badgeKeys.contains(key) && here[key] != .null { sources[key] = here }
        func from(_ key: String) -> Members { sources[key] ?? here }

        if let v = try from("slots").integer("slots", 1...20) { set.slots = v }
        if let v = try from("size").integer("size", 1...512) { set.size = v }
        if let v = try from("spacing").integer("spacing", 0...512) { set.spacing = v }
        if let v = try from("fill").color("fill", allowNone: false) { set.fill = v }
        if let v = try from("empty").color("empty", allowNone: true) { set.empty = v }
        if let v = try from("outline").color("outline", allowNone: true) { set.outline = v }
        if let v = try from("outlineWidth").number("outlineWidth") {
            // thumbgen's limit: the outline must leave some of the star inside it (0.1545 × size is
            // the distance from a regular star's edge to its inner vertex circle).
            guard v.value >= 0, v.value < 0.1545 * Double(set.size) else {
                throw from("outlineWidth").error("outlineWidth", "expected pixels from 0 to under 0.1545 x size (\(0.1545 * Double(set.size))), got \(v.text)")
            }
            set.outlineWidth = v.value
        }
        let explicitMode = try from("fillMode").choice("fillMode", ["full", "half", "precise"])
        let half = try here.bool("half") ?? false
        if let ratings = try from("ratings").ratings("ratings", slots: set.slots) {
            set.ratings = ratings
        } else if half {
            set.ratings = (1...(2 * set.slots)).map { Double($0) / 2 }
        } else {
            set.ratings = (1...set.slots).map(Double.init)
        }
        set.fillMode = explicitMode ?? (half ? "half" : "full")
        if let v = try from("scales").scales("scales") { set.scales = v }
        if let name = try from("name").string("name") {
            try checkFormat(name, placeholders: "rs", from("name"), "name")
            set.name = name
        }
        var seen: [String: Double] = [:]
        for rating in set.ratings {
            let base = StarSet.baseName(format: set.name, rating: rating)
            if let other = seen[base] {
                throw from("ratings").error("ratings", "ratings \(StarSet.text(other)) and \(StarSet.text(rating)) are both named \(PluginJSON.quoted(base))")
            }
            seen[base] = rating
        }
        return set
    }

    // MARK: Helpers

    /// Checks a name format: only `%` + one of `placeholders` or `%`, and the names it makes are
    /// file names (not empty, no `/`, not hidden).
    private static func checkFormat(_ format: String, placeholders: String, _ m: Members, _ key: String) throws(ThumbgenConfigError) {
        var chars = format.makeIterator()
        while let c = chars.next() {
            guard c == "%" else { continue }
            guard let e = chars.next() else { throw m.error(key, "\(PluginJSON.quoted(format)) ends with a lone %") }
            guard placeholders.contains(e) || e == "%" else {
                let list = placeholders.map { "%\($0)" }.joined(separator: ", ")
                throw m.error(key, "unknown placeholder %\(e) in \(PluginJSON.quoted(format)) (use \(list) or %%)")
            }
        }
        let sample = placeholders.contains("r") ? StarSet.baseName(format: format, rating: 2.5) : format.replacingPlaceholder("photo")
        guard !format.isEmpty, !sample.isEmpty, !sample.contains("/"), !sample.hasPrefix("."), !sample.contains("\0") else {
            throw m.error(key, "\(PluginJSON.quoted(format)) does not make a file name")
        }
    }

    /// A path inside the base directory: relative, no `..`, `.` segments and repeated slashes dropped.
    private static func relativePath(_ text: String, _ m: Members, _ key: String) throws(ThumbgenConfigError) -> String {
        let parts = text.split(separator: "/").filter { $0 != "." }
        guard !text.hasPrefix("/"), !parts.isEmpty, !parts.contains("..") else {
            throw m.error(key, "expected a path inside the project's folder, got \(PluginJSON.quoted(text))")
        }
        return parts.joined(separator: "/")
    }

    static func baseName(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }

    /// `Sources/App/` for `Sources/App/thumbgen.json`.
    static func directoryPrefix(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}

extension ThumbgenConfig {
    /// One icon set (`thumbgen icons`), validated.
    struct IconGroup: Sendable {
        /// `icons[i]`, for messages.
        var member: String
        /// The master image, relative to the base directory.
        var source: String
        /// The folder the platforms' folders go to, relative to the base directory.
        var output = "icons"
        /// The `thumbgen icons` options the members give, in the table's order.
        var options: [String] = []
        /// Every other file the set reads (stand-ins, size sources), relative to the base directory.
        var inputs: [String] = []
        var platforms = ["ios", "macos", "android", "web", "windows", "linux"]
        var iosLayout = "single"
        var hasDark = false
        var backgroundPicture = false
        /// The Linux icon's name: `name`, else the master's name without its extension.
        var name = "app"

        /// Every PNG the set makes, as paths below `output`, in the order `thumbgen icons` writes
        /// them (a test holds this to the set's own plan): what the build plugin declares.
        var pngPaths: [String] {
            var paths: [String] = []
            for platform in platforms {
                switch platform {
                case "ios":
                    let folder = "ios/AppIcon.appiconset/"
                    if iosLayout == "legacy" {
                        for stem in ["20@2x", "20@3x", "29@2x", "29@3x", "40@2x", "40@3x", "60@2x", "60@3x", "20", "29", "40", "76", "76@2x", "83.5@2x", "1024"] {
                            paths.append(folder + "AppIcon-\(stem).png")
                        }
                    } else {
                        let stems = iosLayout == "single" ? ["1024"]
                            : ["20@2x", "20@3x", "29@2x", "29@3x", "38@2x", "38@3x", "40@2x", "40@3x", "60@2x", "60@3x", "64@2x", "64@3x", "68@2x", "76@2x", "83.5@2x", "1024"]
                        for stem in stems {
                            for appearance in ["", "-dark", "-tinted"] where appearance != "-dark" || hasDark {
                                paths.append(folder + "AppIcon\(appearance)-\(stem).png")
                            }
                        }
                    }
                case "macos":
                    for points in [16, 32, 128, 256, 512] {
                        paths += ["macos/AppIcon.appiconset/icon_\(points)x\(points).png", "macos/AppIcon.appiconset/icon_\(points)x\(points)@2x.png"]
                    }
                case "android":
                    for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
                        let layers = backgroundPicture ? ["foreground", "background", "monochrome"] : ["foreground", "monochrome"]
                        paths += (["", "_round"] + layers.map { "_" + $0 }).map { "android/res/mipmap-\(density)/ic_launcher\($0).png" }
                    }
                    paths.append("android/playstore-icon.png")
                case "web":
                    paths += ["favicon-96x96", "apple-touch-icon", "icon-192", "icon-512", "icon-maskable-192", "icon-maskable-512"].map { "web/\($0).png" }
                case "linux":
                    paths += [16, 22, 24, 32, 48, 64, 128, 256, 512].map { "linux/hicolor/\($0)x\($0)/apps/\(name).png" }
                default:
                    continue
                }
            }
            return paths
        }

        /// A PNG's name among a target's resources, which are flat: its path with `/` as `-`
        /// (`web-icon-192.png`).
        static func resourceName(_ path: String) -> String { String(path.map { $0 == "/" ? "-" : $0 }) }
    }

    static let platformNames = ["ios", "macos", "android", "web", "windows", "linux"]

    /// Every member an icon group may have besides `source`, `output`, `platforms`, `background`
    /// and `sizeSources`, and the `thumbgen icons` option it stands for.
    static let iconOptionMembers: [OptionMember] = [
        OptionMember(member: "iosLayout", option: "ios-layout", kind: .choice(["single", "all-sizes", "legacy"])),
        OptionMember(member: "macosStyle", option: "macos-style", kind: .choice(["grid", "full"])),
        OptionMember(member: "dark", option: "dark", kind: .path),
        OptionMember(member: "tinted", option: "tinted", kind: .path),
        OptionMember(member: "foreground", option: "foreground", kind: .path),
        OptionMember(member: "monochrome", option: "monochrome", kind: .path),
        OptionMember(member: "maskable", option: "maskable", kind: .path),
        OptionMember(member: "iconBackground", option: "icon-background", kind: .color(allowsNone: false)),
        OptionMember(member: "padding", option: "padding", kind: .number(0...40)),
        OptionMember(member: "fitContent", option: "fit-content", kind: .flag),
        OptionMember(member: "name", option: "name", kind: .special),
        OptionMember(member: "webPrefix", option: "web-prefix", kind: .special),
        OptionMember(member: "maxPixels", option: "max-pixels", kind: .integer(0...Int.max)),
        OptionMember(member: "maxFileBytes", option: "max-file-bytes", kind: .integer(0...Int.max)),
        OptionMember(member: "maxMemory", option: "max-memory", kind: .bytes),
    ]

    fileprivate static func iconGroup(_ value: PluginJSON, file: String, member: String,
                                      readFile: (String) -> [UInt8]?) throws(ThumbgenConfigError) -> IconGroup {
        let m = try Members(value, file: file, path: member,
                            keys: Set(iconOptionMembers.map(\.member) + ["background", "output", "platforms", "sizeSources", "source"]))
        func existing(_ key: String, _ text: String) throws(ThumbgenConfigError) -> String {
            let path = try relativePath(text, m, key)
            guard readFile(path) != nil else { throw m.error(key, "cannot read \(PluginJSON.quoted(text)) next to \(baseName(file))") }
            return path
        }
        guard let source = try m.string("source") else { throw m.error(nil, "missing member \"source\" (the master image, beside \(baseName(file)))") }
        var group = IconGroup(member: member, source: try existing("source", source))
        if let output = try m.string("output") { group.output = try relativePath(output, m, "output") }
        let stem = baseName(group.source)
        group.name = stem.contains(".") ? String(stem[..<stem.lastIndex(of: ".")!]) : stem
        if m["platforms"] != nil {
            group.platforms = try m.list("platforms") { element, at throws(ThumbgenConfigError) -> String in
                guard case .string(let s) = element, platformNames.contains(s) else {
                    throw m.error(at, "expected one of \(platformNames.joined(separator: ", ")), got \(element.shown)")
                }
                return s
            }
        }
        var options = ["--platforms", group.platforms.joined(separator: ",")]
        for option in iconOptionMembers {
            guard m[option.member] != nil, m[option.member] != .null else { continue }
            switch option.kind {
            case .path:
                let path = try existing(option.member, try m.string(option.member)!)
                group.inputs.append(path)
                options += ["--" + option.option, path]
            case .special:
                // `name` and `webPrefix`: strings thumbgen checks (the same line either way).
                guard let text = try m.string(option.member) else { continue }
                if option.member == "name" {
                    guard !text.isEmpty, !text.hasPrefix("."), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
                        throw m.error("name", "expected letters, digits, '.', '_' and '-', not starting with '.', got \(PluginJSON.quoted(text))")
                    }
                    group.name = text
                }
                options += ["--" + option.option, text]
            default:
                options += try plainArguments(option, m)
            }
        }
        group.iosLayout = try m.choice("iosLayout", ["single", "all-sizes", "legacy"]) ?? "single"
        group.hasDark = m["dark"] != nil && m["dark"] != .null
        if let background = try m.string("background") {
            let digits = background.hasPrefix("#") ? background.dropFirst() : Substring(background)
            if digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) {
                options += ["--background", String(digits)]
            } else {
                let path = try existing("background", background)
                group.inputs.append(path)
                group.backgroundPicture = true
                options += ["--background", path]
            }
        }
        if let value = m["sizeSources"], value != .null {
            guard case .object(let members) = value, !members.isEmpty else {
                throw m.error("sizeSources", "expected an object such as {\"16\": \"icon16.png\"}, got \(value.shown)")
            }
            var pairs: [String] = []
            for (size, path) in members {
                guard let pixels = Int(size), (1...1024).contains(pixels), case .string(let text) = path else {
                    throw m.error("sizeSources." + size, "expected a size from 1 to 1024 naming an image, got \(path.shown)")
                }
                let resolved = try existing("sizeSources." + size, text)
                group.inputs.append(resolved)
                pairs.append("\(pixels)=\(resolved)")
            }
            options += ["--size-source", pairs.joined(separator: ",")]
        }
        for (option, platform) in [("iosLayout", "ios"), ("dark", "ios"), ("tinted", "ios"), ("macosStyle", "macos"), ("foreground", "android"),
                                   ("background", "android"), ("monochrome", "android"), ("maskable", "web"), ("webPrefix", "web")]
            where m[option] != nil && !group.platforms.contains(platform) {
            throw m.error(option, "applies to the \(platform) icons, which platforms leaves out")
        }
        group.options = options
        return group
    }
}

/// A mistake in `thumbgen.json` (or in a badge spec it names): one line, naming the file and the
/// member.
struct ThumbgenConfigError: Error, CustomStringConvertible, Sendable {
    /// The file as messages show it.
    let file: String
    /// `thumbnails[0].size`; nil for the whole document (a syntax error, say).
    let member: String?
    let message: String

    var description: String { file + ": " + (member.map { $0 + ": " } ?? "") + message }
}

/// An object's members with typed accessors whose errors name `path.key`.
private struct Members {
    let file: String
    let path: String?
    let members: [(key: String, value: PluginJSON)]

    init(_ value: PluginJSON, file: String, path: String?, keys: Set<String>) throws(ThumbgenConfigError) {
        self.file = file
        self.path = path
        guard case .object(let members) = value else {
            throw ThumbgenConfigError(file: file, member: path, message: "expected an object, got \(value.kind)")
        }
        self.members = members
        if let unknown = members.first(where: { !keys.contains($0.key) }) {
            throw error(unknown.key, "unknown member (known: \(keys.sorted().joined(separator: ", ")))")
        }
    }

    var keys: [String] { members.map(\.key) }

    subscript(key: String) -> PluginJSON? {
        members.first(where: { $0.key == key })?.value
    }

    func error(_ key: String?, _ message: String) -> ThumbgenConfigError {
        let name: String? = switch (path, key) {
        case let (p?, k?): p + "." + k
        case let (nil, k?): k
        case let (p, nil): p
        }
        return ThumbgenConfigError(file: file, member: name, message: message)
    }

    /// The member's value, nil when absent or `null`.
    private func present(_ key: String) -> PluginJSON? {
        guard let value = self[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(ThumbgenConfigError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw error(key, "expected a string, got \(value.kind)") }
        return s
    }

    func bool(_ key: String) throws(ThumbgenConfigError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let b) = value else { throw error(key, "expected true or false, got \(value.shown)") }
        return b
    }

    func number(_ key: String) throws(ThumbgenConfigError) -> (value: Double, text: String)? {
        guard let value = present(key) else { return nil }
        guard case .number(let d, let text) = value else { throw error(key, "expected a number, got \(value.kind)") }
        return (d, text)
    }

    func integer(_ key: String, _ range: ClosedRange<Int>) throws(ThumbgenConfigError) -> Int? {
        guard let value = present(key) else { return nil }
        let upper = range.upperBound == Int.max ? "any size" : String(range.upperBound)
        guard case .number(let d, _) = value, d == d.rounded(), let i = Int(exactly: d), range.contains(i) else {
            throw error(key, "expected a whole number from \(range.lowerBound) to \(upper), got \(value.shown)")
        }
        return i
    }

    /// A number of bytes, or a string such as `512M` (a K, M, G or T suffix).
    func bytes(_ key: String) throws(ThumbgenConfigError) -> String {
        let value = present(key)!
        switch value {
        case .number(let d, _) where d == d.rounded() && d >= 0:
            return String(Int(d))
        case .string(let s) where !s.isEmpty && s.dropLast(s.last.map { "KMGTkmgt".contains($0) } == true ? 1 : 0)
                .allSatisfy({ $0.isASCII && $0.isNumber }) && s.first?.isNumber == true:
            return s
        default:
            throw error(key, "expected a number of bytes, or a string such as \"512M\", got \(value.shown)")
        }
    }

    func array(_ key: String) throws(ThumbgenConfigError) -> [PluginJSON] {
        guard let value = present(key) else { return [] }
        guard case .array(let elements) = value else { throw error(key, "expected an array, got \(value.kind)") }
        return elements
    }

    /// A non-empty array, each element converted by `item` (which names `key[i]` in its errors).
    func list<T>(_ key: String, _ item: (PluginJSON, String) throws(ThumbgenConfigError) -> T) throws(ThumbgenConfigError) -> [T] {
        let value = present(key)!
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw error(key, "expected a non-empty array, got \(value.shown)")
        }
        var out: [T] = []
        for (i, element) in elements.enumerated() { out.append(try item(element, key + "[\(i)]")) }
        return out
    }

    func choice(_ key: String, _ choices: [String]) throws(ThumbgenConfigError) -> String? {
        guard let s = try string(key) else { return nil }
        guard choices.contains(s) else {
            throw error(key, "expected one of \(choices.joined(separator: ", ")), got \(PluginJSON.quoted(s))")
        }
        return s
    }

    /// `RRGGBB` or `RRGGBBAA` (a leading `#` allowed), or `none` when `allowNone`.
    func color(_ key: String, allowNone: Bool) throws(ThumbgenConfigError) -> String? {
        guard let s = try string(key) else { return nil }
        if allowNone && s.lowercased() == "none" { return "none" }
        let digits = s.hasPrefix("#") ? s.dropFirst() : Substring(s)
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
            throw error(key, "expected RRGGBB or RRGGBBAA\(allowNone ? " or none" : ""), got \(PluginJSON.quoted(s))")
        }
        return String(digits)
    }

    /// A non-empty array of 1, 2 and 3, none twice, order kept (star badge sets).
    func scales(_ key: String) throws(ThumbgenConfigError) -> [Int]? {
        guard let value = present(key) else { return nil }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw error(key, "expected a non-empty array of 1, 2 and 3, got \(value.shown)")
        }
        var out: [Int] = []
        for (i, element) in elements.enumerated() {
            guard case .number(let d, _) = element, let s = Int(exactly: d), (1...3).contains(s) else {
                throw error(key + "[\(i)]", "expected 1, 2 or 3, got \(element.shown)")
            }
            guard !out.contains(s) else { throw error(key + "[\(i)]", "scale \(s) appears twice") }
            out.append(s)
        }
        return out
    }

    /// A non-empty array of ratings, each in 0…slots.
    func ratings(_ key: String, slots: Int) throws(ThumbgenConfigError) -> [Double]? {
        guard let value = present(key) else { return nil }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw error(key, "expected a non-empty array of numbers, got \(value.shown)")
        }
        var out: [Double] = []
        for (i, element) in elements.enumerated() {
            guard case .number(let d, _) = element, d >= 0, d <= Double(slots) else {
                throw error(key + "[\(i)]", "expected a rating from 0 to \(slots) (slots), got \(element.shown)")
            }
            out.append(d)
        }
        return out
    }
}

private extension String {
    /// The thumbnail name format with `%s` replaced by `stem`, `%w` by a width and `%%` by `%`.
    func replacingPlaceholder(_ stem: String) -> String {
        var out = ""
        var chars = makeIterator()
        while let c = chars.next() {
            guard c == "%" else { out.append(c); continue }
            switch chars.next() {
            case "s": out += stem
            case "w": out += "640"
            default: out += "%"
            }
        }
        return out
    }
}
