import Foundation
import PackagePlugin

/// Thumbnails and star badges as resources, generated at build time from the target's
/// `thumbgen.json` (schema: `ThumbgenConfig`). One build command per source image and one per star
/// badge set, each with its exact inputs (the image, `thumbgen.json`, `thumbgen`) and outputs, so
/// the build system reruns only what changed and runs nothing when nothing did. Each command runs
/// `thumbgen-plugin-step`, which takes the options from `thumbgen.json` as it is when the command
/// runs and then becomes `thumbgen`. The outputs are PNG files in the plugin work directory;
/// SwiftPM makes them the target's resources (`Bundle.module`).
@main
struct ThumbgenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let config = target.directoryURL.appendingPathComponent(ThumbgenPlan.configName)
        guard FileManager.default.fileExists(atPath: config.path) else {
            Diagnostics.warning("\(target.name): ThumbgenPlugin found no \(ThumbgenPlan.configName) in \(target.directoryURL.path)")
            return []
        }
        let shown = Self.shownPath(config, from: context.package.directoryURL)
        return try Self.commands(config: config, shownAs: shown, workDirectory: context.pluginWorkDirectoryURL,
                                 thumbgen: try context.tool(named: "thumbgen").url,
                                 step: try context.tool(named: "thumbgen-plugin-step").url)
    }

    /// The build commands for one config file (shared by SwiftPM and Xcode). A mistake in the file
    /// is one error line naming the file and the member, and no commands: the build fails.
    static func commands(config: URL, shownAs: String, workDirectory: URL, thumbgen: URL, step: URL) throws -> [Command] {
        let plan: ThumbgenPlan
        do {
            plan = try ThumbgenPlan(configURL: config, shownAs: shownAs, workDirectory: workDirectory, thumbgen: thumbgen)
        } catch let error as ThumbgenConfigError {
            throw PluginFailure(error.description)
        }
        for warning in plan.warnings { Diagnostics.warning(warning) }
        return plan.jobs.map { job in
            .buildCommand(displayName: job.displayName, executable: step, arguments: job.arguments,
                          inputFiles: job.inputs, outputFiles: job.outputs)
        }
    }

    /// `path` relative to `root` when inside it, else whole.
    static func shownPath(_ path: URL, from root: URL) -> String {
        let rootPath = root.standardizedFileURL.path.hasSuffix("/") ? root.standardizedFileURL.path : root.standardizedFileURL.path + "/"
        let full = path.standardizedFileURL.path
        return full.hasPrefix(rootPath) ? String(full.dropFirst(rootPath.count)) : full
    }
}

/// A failure whose text is the whole message (SwiftPM prints a thrown error's description).
struct PluginFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same plugin on an Xcode target: its `thumbgen.json` is the one among the target's files,
/// and `source`/`spec` paths are relative to that file's folder.
extension ThumbgenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        guard let config = target.inputFiles.first(where: { $0.url.lastPathComponent == ThumbgenPlan.configName })?.url else {
            Diagnostics.warning("\(target.displayName): ThumbgenPlugin found no \(ThumbgenPlan.configName) among the target's files")
            return []
        }
        let shown = Self.shownPath(config, from: context.xcodeProject.directoryURL)
        return try Self.commands(config: config, shownAs: shown, workDirectory: context.pluginWorkDirectoryURL,
                                 thumbgen: try context.tool(named: "thumbgen").url,
                                 step: try context.tool(named: "thumbgen-plugin-step").url)
    }
}
#endif
