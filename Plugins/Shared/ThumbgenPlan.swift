import Foundation

/// The `thumbgen` runs one `thumbgen.json` asks for: one per source image (so touching an image
/// reruns only its own) and one per star badge set, each with exact inputs and outputs under a work
/// folder. The build plugin hands them to SwiftPM or Xcode as build commands; the command plugin
/// runs them itself and copies the outputs into the package.
///
/// Each run is `thumbgen-plugin-step`, which reads `thumbgen.json` when it runs and then becomes
/// `thumbgen` with that file's options (see `Plugins/ThumbgenStep/main.swift` for why). Inputs of
/// every run: its image (or the badge spec file a set names), `thumbgen.json` and the `thumbgen`
/// executable; outputs: exactly the PNGs it writes.
struct ThumbgenPlan {
    /// One run of `thumbgen-plugin-step`.
    struct Job {
        /// What the build log shows.
        var displayName: String
        /// `thumbgen-plugin-step`'s arguments.
        var arguments: [String]
        var inputs: [URL]
        /// Every image the run writes, nothing else. (A thumbnail run also writes its batch manifest,
        /// `thumbgen-manifest.json`, and a star run its `spec.json`, beside them; they are not
        /// outputs, so they are not resources.) Empty for a whole group named by width, whose
        /// files are found in `outputFolder` after the run.
        var outputs: [URL]
        /// For a group run whole (widths, in the command plugin): the folder its files land in.
        var outputFolder: URL?
        /// `thumbnails[0]` or `stars[1]`.
        var member: String
        /// For an icon set: the folder its whole tree lands in, and the folder (relative to the
        /// config's) the command plugin copies that tree to.
        var iconSetFolder: URL? = nil
        var iconOutput: String? = nil
    }

    /// The name the plugins look for in a target's folder.
    static let configName = "thumbgen.json"
    /// File extensions (lower-cased) of the images a source folder contributes.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "gif", "tif", "tiff", "heic", "heif", "hif", "avif", "dng", "cr2", "cr3", "nef", "nrw", "arw", "orf", "rw2", "pef", "srw", "raf"]

    var jobs: [Job] = []
    /// Not errors, but worth a line in the build log (a source folder without images).
    var warnings: [String] = []

    /// Reads `configURL` and plans its runs.
    /// - Parameters:
    ///   - configURL: the `thumbgen.json`; `source` and `spec` paths are relative to its folder.
    ///   - shownAs: the config's name in messages (e.g. relative to the package).
    ///   - workDirectory: where the outputs go (the plugin work directory).
    ///   - thumbgen: the `thumbgen` executable the runs end in.
    /// - Parameter wholeGroups: run a group with widths as one job whose outputs are found after
    ///   it ran (the command plugin can; the build plugin must name every output first, so there
    ///   such a group is an error).
    init(configURL: URL, shownAs: String, workDirectory: URL, thumbgen: URL, wholeGroups: Bool = false) throws {
        let base = configURL.deletingLastPathComponent()
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: configURL)) } catch {
            throw ThumbgenConfigError(file: shownAs, member: nil, message: "cannot read the file")
        }
        let config = try ThumbgenConfig(
            bytes: bytes, file: shownAs,
            readFile: { path in (try? Data(contentsOf: base.appendingPathComponent(path))).map { [UInt8]($0) } },
            isDirectory: { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue
            })
        let common = [thumbgen.path, configURL.path, shownAs]

        // Resource names are flat: the first member to claim a name keeps it.
        var claimed: [String: String] = [:]
        func claim(_ names: [String], by who: String, member: String) throws {
            for name in names {
                if let other = claimed[name] {
                    throw ThumbgenConfigError(file: shownAs, member: member,
                                              message: "\(who) makes \(PluginJSON.quoted(name)), as does \(other) (resources share one folder)")
                }
                claimed[name] = "\(who) of \(member)"
            }
        }

        for (g, group) in config.thumbnails.enumerated() {
            let groupDirectory = workDirectory.appendingPathComponent("thumbnails/\(g)", isDirectory: true)
            if !group.widths.isEmpty {
                guard wholeGroups else {
                    throw ThumbgenConfigError(file: shownAs, member: group.member + ".widths",
                                              message: "outputs named by the width each image gets cannot be named before the build reads the images; "
                                                + "make them with swift package thumbgen or thumbgen build")
                }
                jobs.append(Job(displayName: "thumbgen \(group.source) (\(group.member))",
                                arguments: common + ["group", String(g), groupDirectory.path],
                                inputs: [configURL, thumbgen], outputs: [], outputFolder: groupDirectory, member: group.member))
                continue
            }
            let images = Self.images(in: base.appendingPathComponent(group.source, isDirectory: true))
            if images.isEmpty {
                warnings.append("\(shownAs): \(group.member).source: no .png, .jpg, .jpeg, .webp, .gif, .tif or .tiff files in \(PluginJSON.quoted(group.source))")
            }
            for relative in images {
                let shownSource = group.source + "/" + relative
                let image = base.appendingPathComponent(shownSource)
                let names = group.outputNames(forImageNamed: ThumbgenConfig.baseName(relative))
                try claim(names, by: shownSource, member: group.member)
                let outputDirectory = groupDirectory.appendingPathComponent(relative, isDirectory: true)
                jobs.append(Job(
                    displayName: "thumbgen \(shownSource) -> \(names.joined(separator: ", "))",
                    arguments: common + ["thumbnail", String(g), image.path, outputDirectory.path] + names,
                    inputs: [image, configURL, thumbgen],
                    outputs: names.map { outputDirectory.appendingPathComponent($0) },
                    outputFolder: nil, member: group.member))
            }
        }

        for (g, group) in config.icons.enumerated() {
            let groupDirectory = workDirectory.appendingPathComponent("icons/\(g)", isDirectory: true)
            let names = group.pngPaths.map(ThumbgenConfig.IconGroup.resourceName)
            try claim(names, by: "the icon set", member: group.member)
            jobs.append(Job(
                displayName: "thumbgen icons \(group.source) (\(group.member)) -> \(names.count) PNGs",
                arguments: common + ["icons", String(g), groupDirectory.path] + names,
                inputs: ([group.source] + group.inputs).map { base.appendingPathComponent($0) } + [configURL, thumbgen],
                outputs: names.map { groupDirectory.appendingPathComponent("png/" + $0) },
                outputFolder: nil, member: group.member,
                iconSetFolder: groupDirectory.appendingPathComponent("set", isDirectory: true), iconOutput: group.output))
        }

        for (i, set) in config.stars.enumerated() {
            let setDirectory = workDirectory.appendingPathComponent("stars/\(i)", isDirectory: true)
            let names = set.outputNames
            try claim(names, by: "the badge set", member: set.member)
            jobs.append(Job(
                displayName: "thumbgen stars (\(set.member)) -> \(names.count) badges",
                arguments: common + ["stars", String(i), setDirectory.path] + names,
                inputs: [configURL, thumbgen] + (set.specFile.map { [base.appendingPathComponent($0)] } ?? []),
                outputs: names.map { setDirectory.appendingPathComponent("png/" + $0) },
                outputFolder: nil, member: set.member))
        }
    }

    /// The images below `folder`, as paths relative to it, in byte-wise sorted order: regular
    /// files (symbolic links followed) whose extension is in `imageExtensions` (any case), hidden
    /// files and folders left out, as thumbgen itself walks.
    static func images(in folder: URL) -> [String] {
        var found: [String] = []
        var visited: Set<String> = []
        func walk(_ directory: URL, _ prefix: String, depth: Int) {
            let resolved = directory.resolvingSymlinksInPath().path
            guard depth < 64, visited.insert(resolved).inserted,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
            for name in names where !name.hasPrefix(".") {
                let url = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    walk(url, prefix + name + "/", depth: depth + 1)
                } else if imageExtensions.contains(url.pathExtension.lowercased()) {
                    found.append(prefix + name)
                }
            }
        }
        walk(folder, "", depth: 0)
        return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
