import Foundation
import Testing
import TestSupport
import ThumbKit

/// The plugins' side of icon sets: the PNG names they declare before the build runs must be the
/// ones `thumbgen icons` writes, whatever the members, and each build command lists every file
/// the set reads.
@Suite struct IconPlanTests {
    func plan(_ json: String) throws -> (plan: ThumbgenPlan, folder: String) {
        let folder = Fixtures.temporaryDirectory("icon-plan")
        for name in ["logo.png", "dark.png", "small16.png", "layer.png"] {
            try FileManager.default.copyItem(atPath: Fixtures.path("icons/" + name), toPath: folder + "/" + name)
        }
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/thumbgen.json"))
        let plan = try ThumbgenPlan(configURL: URL(fileURLWithPath: folder + "/thumbgen.json"), shownAs: "thumbgen.json",
                                    workDirectory: URL(fileURLWithPath: folder + "/work"), thumbgen: URL(fileURLWithPath: "/bin/thumbgen"))
        return (plan, folder)
    }

    /// `IconGroup.pngPaths` against the set's own plan, for every layout and each member that
    /// changes which files there are.
    @Test(arguments: [
        #"{"source": "logo.png"}"#,
        #"{"source": "logo.png", "iosLayout": "all-sizes", "dark": "dark.png", "name": "shop"}"#,
        #"{"source": "logo.png", "iosLayout": "legacy", "background": "layer.png"}"#,
        ##"{"source": "logo.png", "platforms": ["android", "linux"], "background": "#3ddc84"}"##,
    ])
    func declaredNamesAreTheSetsOwn(group: String) throws {
        let (plan, folder) = try plan(#"{"icons": [\#(group)]}"#)
        let config = try ThumbgenConfig(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/thumbgen.json"))),
                                        file: "thumbgen.json", readFile: { try? Array(Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) },
                                        isDirectory: { _ in false })
        let icons = config.icons[0]
        let arguments = icons.options
        var set = IconSet(platforms: arguments[1].split(separator: ",").map { IconPlatform(rawValue: String($0))! })
        if let at = arguments.firstIndex(of: "--ios-layout") { set.iosLayout = IconSet.IOSLayout(rawValue: arguments[at + 1])! }
        if arguments.contains("--dark") { set.sources[.dark] = IconSet.Source(path: "dark.png", recorded: "dark.png", sha256: String(repeating: "0", count: 64)) }
        if let at = arguments.firstIndex(of: "--background"), arguments[at + 1].hasSuffix(".png") {
            set.sources[.background] = IconSet.Source(path: "layer.png", recorded: "layer.png", sha256: String(repeating: "0", count: 64))
        }
        set.name = icons.name
        let pngs = set.files.filter { $0.format == "png" }.map(\.path)
        #expect(icons.pngPaths == pngs)
        #expect(plan.jobs[0].outputs.map(\.lastPathComponent) == pngs.map { String($0.map { $0 == "/" ? "-" : $0 }) })
        #expect(plan.jobs[0].inputs.map(\.lastPathComponent).contains("logo.png"))
        if arguments.contains("--dark") { #expect(plan.jobs[0].inputs.map(\.lastPathComponent).contains("dark.png")) }
    }
}
