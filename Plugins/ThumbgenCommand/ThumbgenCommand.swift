import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory thumbgen [--target NAME]... [--output DIR]
/// [--xcassets NAME.xcassets]`: runs what each target's `thumbgen.json` asks for (the same plan and
/// the same `thumbgen` runs as ThumbgenPlugin) and writes the PNGs into the target's folder, for
/// people who check generated images in.
///
/// - `--target NAME` (repeatable): only these targets; default every target with a `thumbgen.json`.
/// - `--output DIR`: the folder, relative to each target's folder, that gets the PNGs, flat, with
///   the names `Bundle.module` would have (default `Generated`, unless `--xcassets` is given).
/// - `--xcassets NAME.xcassets`: also (or, without `--output`, only) write an Xcode asset catalog
///   there, relative to the target's folder: one image set per name, its @1x/@2x/@3x files in
///   their slots.
///
/// A file whose bytes are unchanged is left alone (its date too), so a rerun changes nothing in
/// version control.
@main
struct ThumbgenCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let outputOption = extractor.extractOption(named: "output").last
        let catalog = extractor.extractOption(named: "xcassets").last
        guard extractor.remainingArguments.isEmpty else {
            throw CommandFailure("thumbgen: unexpected argument \(extractor.remainingArguments[0]) (use --target NAME, --output DIR, --xcassets NAME.xcassets)")
        }
        let output = outputOption ?? (catalog == nil ? "Generated" : nil)
        let thumbgen = try context.tool(named: "thumbgen").url
        let step = try context.tool(named: "thumbgen-plugin-step").url

        var targets: [SourceModuleTarget] = []
        for target in context.package.targets {
            guard let module = target as? SourceModuleTarget else { continue }
            if names.isEmpty ? Self.hasConfig(module) : names.contains(module.name) { targets.append(module) }
        }
        for name in names where !targets.contains(where: { $0.name == name }) {
            throw CommandFailure("thumbgen: no source target named \(name) in package \(context.package.displayName)")
        }
        if targets.isEmpty { throw CommandFailure("thumbgen: no target of \(context.package.displayName) has a \(ThumbgenPlan.configName)") }

        for target in targets {
            let config = target.directoryURL.appendingPathComponent(ThumbgenPlan.configName)
            guard FileManager.default.fileExists(atPath: config.path) else {
                throw CommandFailure("thumbgen: target \(target.name) has no \(ThumbgenPlan.configName)")
            }
            let shown = Self.shownPath(config, from: context.package.directoryURL)
            let plan: ThumbgenPlan
            do {
                plan = try ThumbgenPlan(configURL: config, shownAs: shown,
                                        workDirectory: context.pluginWorkDirectoryURL.appendingPathComponent(target.name),
                                        thumbgen: thumbgen, wholeGroups: true)
            } catch let error as ThumbgenConfigError {
                throw CommandFailure(error.description)
            }
            for warning in plan.warnings { Diagnostics.warning(warning) }
            for job in plan.jobs { try Self.run(step, job.arguments, job: job) }
            // An icon set's tree goes into the target as it is (AppIcon.appiconset, res/, …).
            for job in plan.jobs {
                guard let folder = job.iconSetFolder, let output = job.iconOutput else { continue }
                let destination = target.directoryURL.appendingPathComponent(output, isDirectory: true)
                var changed = 0, count = 0
                let root = folder.resolvingSymlinksInPath().path
                for file in Self.files(below: folder) where file.lastPathComponent != "thumbgen-manifest.json" {
                    let relative = String(file.path.dropFirst(root.count + 1))
                    count += 1
                    if try Self.copy(file, to: destination.appendingPathComponent(relative)) { changed += 1 }
                }
                print("\(Self.shownPath(destination, from: context.package.directoryURL)): \(count) icon files, \(changed) changed")
            }
            var files = plan.jobs.filter { $0.iconSetFolder == nil }.flatMap(\.outputs)
            // A group named by widths: whatever it wrote, flat, each name once.
            var claimed = Set(files.map(\.lastPathComponent))
            for job in plan.jobs {
                guard let folder = job.outputFolder else { continue }
                for file in Self.images(below: folder) {
                    guard claimed.insert(file.lastPathComponent).inserted else {
                        throw CommandFailure("\(shown): \(job.member) makes \(file.lastPathComponent), as does another member (resources share one folder)")
                    }
                    files.append(file)
                }
            }

            var written = 0
            if let output {
                let folder = target.directoryURL.appendingPathComponent(output, isDirectory: true)
                for file in files {
                    if try Self.copy(file, to: folder.appendingPathComponent(file.lastPathComponent)) { written += 1 }
                }
                print("\(Self.shownPath(folder, from: context.package.directoryURL)): \(files.count) image files, \(written) changed")
            }
            if let catalog {
                let folder = target.directoryURL.appendingPathComponent(catalog, isDirectory: true)
                let changed = try Self.writeCatalog(files, to: folder)
                print("\(Self.shownPath(folder, from: context.package.directoryURL)): \(files.count) image files in image sets, \(changed) files changed")
            }
        }
    }

    /// The image files below `folder` (not the manifest), sorted by path.
    static func images(below folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [URL] = []
        for case let url as URL in enumerator where ["png", "jpg", "jpeg", "webp"].contains(url.pathExtension.lowercased()) {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Every regular file below `folder`, sorted by path.
    static func files(below folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder.resolvingSymlinksInPath(), includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [URL] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }

    static func hasConfig(_ target: SourceModuleTarget) -> Bool {
        FileManager.default.fileExists(atPath: target.directoryURL.appendingPathComponent(ThumbgenPlan.configName).path)
    }

    /// Runs one job (thumbgen-plugin-step, then thumbgen); a failure is an error carrying the first
    /// line it printed.
    static func run(_ step: URL, _ arguments: [String], job: ThumbgenPlan.Job) throws {
        let process = Process()
        process.executableURL = step
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            var detail = text.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
            if detail.hasPrefix("error: ") { detail.removeFirst(7) }
            throw CommandFailure("\(job.displayName): \(detail)")
        }
    }

    /// Copies `source` to `destination` unless it already holds the same bytes; true if written.
    static func copy(_ source: URL, to destination: URL) throws -> Bool {
        try write([UInt8](Data(contentsOf: source)), to: destination)
    }

    static func write(_ bytes: [UInt8], to destination: URL) throws -> Bool {
        if let existing = try? Data(contentsOf: destination), [UInt8](existing) == bytes { return false }
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: destination, options: .atomic)
        return true
    }

    /// An Xcode asset catalog: the root `Contents.json`, and per base name (`dune` for `dune.png`,
    /// `dune@2x.png`) an image set with its files and a `Contents.json` listing the 1x, 2x and 3x
    /// slots, in Xcode's own layout (as `thumbgen stars --xcassets` writes it). Returns the number
    /// of files written.
    static func writeCatalog(_ files: [URL], to folder: URL) throws -> Int {
        var changed = try write(Array(rootContents.utf8), to: folder.appendingPathComponent("Contents.json")) ? 1 : 0
        var order: [String] = []
        var sets: [String: [Int: URL]] = [:]
        for file in files {
            var base = String(file.deletingPathExtension().lastPathComponent)
            var scale = 1
            for s in 2...3 where base.hasSuffix("@\(s)x") {
                scale = s
                base.removeLast(3)
            }
            if sets[base] == nil { order.append(base) }
            sets[base, default: [:]][scale] = file
        }
        for base in order {
            let setFolder = folder.appendingPathComponent(base + ".imageset", isDirectory: true)
            for file in sets[base]!.values where try copy(file, to: setFolder.appendingPathComponent(file.lastPathComponent)) {
                changed += 1
            }
            if try write(Array(imageSetContents(sets[base]!.mapValues(\.lastPathComponent)).utf8),
                         to: setFolder.appendingPathComponent("Contents.json")) {
                changed += 1
            }
        }
        return changed
    }

    static let rootContents = """
        {
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }

        """

    static func imageSetContents(_ files: [Int: String]) -> String {
        var entries: [String] = []
        for scale in 1...3 {
            var lines: [String] = []
            if let name = files[scale] { lines.append("      \"filename\" : \(PluginJSON.quoted(name))") }
            lines.append("      \"idiom\" : \"universal\"")
            lines.append("      \"scale\" : \"\(scale)x\"")
            entries.append("    {\n" + lines.joined(separator: ",\n") + "\n    }")
        }
        return "{\n  \"images\" : [\n" + entries.joined(separator: ",\n") + "\n  ],\n"
            + "  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"
    }

    static func shownPath(_ path: URL, from root: URL) -> String {
        let rootPath = root.standardizedFileURL.path.hasSuffix("/") ? root.standardizedFileURL.path : root.standardizedFileURL.path + "/"
        let full = path.standardizedFileURL.path
        return full.hasPrefix(rootPath) ? String(full.dropFirst(rootPath.count)) : full
    }
}

/// A failure whose text is the whole message.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
