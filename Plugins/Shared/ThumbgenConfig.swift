/// A target's `thumbgen.json`, read and validated: which folders to thumbnail with which options,
/// and which star badge sets to draw. Every mistake is one `ThumbgenConfigError` naming the file
/// and the member (`Sources/App/thumbgen.json: thumbnails[0].size: expected N or WxH, got "40x"`).
///
/// ```json
/// {
///   "thumbnails": [
///     { "source": "Photos", "size": "40x40", "fit": "cover", "cornerRadius": 8, "scales": [1, 2, 3] }
///   ],
///   "stars": [
///     { "scales": [1, 2, 3] }
///   ]
/// }
/// ```
///
/// Top level: `thumbnails` (array of groups) and `stars` (array of badge sets), both optional.
///
/// A thumbnail group (the options are those of `thumbgen`, spelt in camelCase):
/// - `source` (string, required): a folder inside the target, walked recursively in sorted
///   order; `.png`, `.jpg`, `.jpeg`, `.webp`, `.gif`, `.tif` and `.tiff` files (any case) that are not hidden are its images.
/// - `size` (`"N"`, `"WxH"` or a number N; default `"128"`), `fit` (`inside`, `cover`, `contain`,
///   `fill`; default `inside`), `gravity` (`centre`, `north`, … `southwest`), `enlarge` (boolean),
///   `cornerRadius` (pixels at @1x, 0 or more), `background` (`RRGGBB` or `RRGGBBAA`), `kernel`
///   (`lanczos3`, `lanczos2`, `mitchell`, `catrom`, `bilinear`, `box`, `nearest`), `scales` (array
///   of 1, 2, 3; default `[1]`), `name` (`%s` is the image's name without extension; default `%s`).
///
/// A star badge set: the members of a `thumbgen stars --spec` badge spec — `slots`, `size`,
/// `spacing` (integers), `fill`, `empty`, `outline` (colours; `none` for the last two),
/// `outlineWidth` (number), `fillMode` (`full`, `half`, `precise`), `ratings` (array of numbers),
/// `scales` (array of 1, 2, 3; default `[1]`), `name` (`%r` rating, `%s` plural s; default
/// `%rStar%sSmall`) — plus `half` (boolean: also the half ratings, as `--half`) and `spec` (a badge
/// spec file inside the target whose members come first; those given here win).
///
/// Resources of a Swift package are flat (`Bundle.module` has no folders), so every output name
/// must be unique across the whole file; a clash is an error naming both members.
struct ThumbgenConfig: Sendable {
    /// One thumbnail group, validated.
    struct ThumbnailGroup: Sendable {
        /// `thumbnails[i]`, for messages.
        var member: String
        /// The source folder, relative to the base directory, without `./` or a trailing slash.
        var source: String
        var width = 128, height = 128
        var fit = "inside"
        var gravity: String?
        var enlarge = false
        var cornerRadius: String?
        var background: String?
        var kernel: String?
        var scales = [1]
        var name = "%s"

        /// The `thumbgen` options for this group, in a fixed order (the same group always gives
        /// the same arguments, so the build system sees a change only when there is one).
        var options: [String] {
            var out = ["--size", "\(width)x\(height)", "--fit", fit]
            if let gravity { out += ["--gravity", gravity] }
            if enlarge { out.append("--enlarge") }
            if let cornerRadius { out += ["--corner-radius", cornerRadius] }
            if let background { out += ["--background", background] }
            if let kernel { out += ["--kernel", kernel] }
            out += ["--scales", scales.map(String.init).joined(separator: ",")]
            if name != "%s" { out += ["--name", name] }
            return out
        }

        /// The PNG names one image gives, in scale order: `photo.png`, `photo@2x.png`.
        func outputNames(forImageNamed fileName: String) -> [String] {
            var stem = Substring(fileName)
            if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
            var base = ""
            var chars = name.makeIterator()
            while let c = chars.next() {
                if c == "%" { base += chars.next() == "s" ? String(stem) : "%" } else { base.append(c) }
            }
            return scales.map { base + ($0 == 1 ? "" : "@\($0)x") + ".png" }
        }
    }

    /// One star badge set, validated and resolved (spec file merged, `half` applied).
    struct StarSet: Sendable {
        /// `stars[i]`, for messages.
        var member: String
        /// The badge spec file the set started from, relative to the base directory.
        var specFile: String?
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
    var stars: [StarSet] = []

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
        let top = try Members(document, file: file, path: nil, keys: ["stars", "thumbnails"])
        for (i, element) in try top.array("thumbnails").enumerated() {
            thumbnails.append(try Self.group(element, file: file, member: "thumbnails[\(i)]", isDirectory: isDirectory))
        }
        for (i, element) in try top.array("stars").enumerated() {
            stars.append(try Self.starSet(element, file: file, member: "stars[\(i)]", readFile: readFile))
        }
    }

    // MARK: Thumbnail groups

    static let fits = ["inside", "cover", "contain", "fill"]
    static let gravities = ["centre", "center", "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]
    static let kernels = ["lanczos3", "lanczos2", "mitchell", "catrom", "bilinear", "box", "nearest"]

    private static func group(_ value: PluginJSON, file: String, member: String,
                              isDirectory: (String) -> Bool) throws(ThumbgenConfigError) -> ThumbnailGroup {
        let m = try Members(value, file: file, path: member,
                            keys: ["background", "cornerRadius", "enlarge", "fit", "gravity", "kernel", "name", "scales", "size", "source"])
        var group = ThumbnailGroup(member: member, source: "")
        guard let source = try m.string("source") else { throw m.error(nil, "missing member \"source\" (a folder inside the target)") }
        group.source = try relativePath(source, m, "source")
        guard isDirectory(group.source) else { throw m.error("source", "no folder \(PluginJSON.quoted(source)) next to \(baseName(file))") }
        if let size = m["size"] {
            let text: String
            switch size {
            case .string(let s): text = s
            case .number(_, let t): text = t
            default: throw m.error("size", "expected \"N\" or \"WxH\", got \(size.kind)")
            }
            let sides = text.split(separator: "x", omittingEmptySubsequences: false)
            let values = sides.map { side in side.allSatisfy { $0.isASCII && $0.isNumber } ? Int(side) : nil }
            guard (1...2).contains(sides.count), values.allSatisfy({ $0.map { (1...65_535).contains($0) } ?? false }) else {
                throw m.error("size", "expected N or WxH with sides 1 to 65535, got \(size.shown)")
            }
            group.width = values[0]!
            group.height = values.last!!
        }
        if let fit = try m.choice("fit", fits) { group.fit = fit }
        group.gravity = try m.choice("gravity", gravities)
        group.enlarge = try m.bool("enlarge") ?? false
        if let radius = try m.number("cornerRadius") {
            guard radius.value >= 0, radius.value <= 100_000 else {
                throw m.error("cornerRadius", "expected pixels from 0 to 100000, got \(radius.text)")
            }
            group.cornerRadius = radius.text
        }
        group.background = try m.color("background", allowNone: false)
        group.kernel = try m.choice("kernel", kernels)
        if let scales = try m.scales("scales") { group.scales = scales.sorted() }
        if let name = try m.string("name") {
            try checkFormat(name, placeholders: "s", m, "name")
            group.name = name
        }
        return group
    }

    // MARK: Star sets

    private static let badgeKeys: Set<String> = [
        "empty", "fill", "fillMode", "name", "outline", "outlineWidth", "ratings", "scales", "size", "slots", "spacing",
    ]

    private static func starSet(_ value: PluginJSON, file: String, member: String,
                                readFile: (String) -> [UInt8]?) throws(ThumbgenConfigError) -> StarSet {
        let here = try Members(value, file: file, path: member, keys: badgeKeys.union(["half", "spec"]))
        var set = StarSet(member: member)
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
            throw m.error(key, "expected a path inside the target, got \(PluginJSON.quoted(text))")
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
        guard case .number(let d, _) = value, d == d.rounded(), let i = Int(exactly: d), range.contains(i) else {
            throw error(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value.shown)")
        }
        return i
    }

    func array(_ key: String) throws(ThumbgenConfigError) -> [PluginJSON] {
        guard let value = present(key) else { return [] }
        guard case .array(let elements) = value else { throw error(key, "expected an array, got \(value.kind)") }
        return elements
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

    /// A non-empty array of 1, 2 and 3, none twice, order kept.
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
    /// The thumbnail name format with `%s` replaced by `stem` and `%%` by `%`.
    func replacingPlaceholder(_ stem: String) -> String {
        var out = ""
        var chars = makeIterator()
        while let c = chars.next() {
            if c == "%" { out += chars.next() == "s" ? stem : "%" } else { out.append(c) }
        }
        return out
    }
}
