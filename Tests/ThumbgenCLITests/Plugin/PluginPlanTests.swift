import Foundation
import Testing
import TestSupport

/// The SwiftPM plugins' plan, compiled here from the plugins' own sources: what each build command
/// declares for the new members, and the one thing a build plugin cannot do.
@Suite struct PluginPlanTests {
    func plan(_ json: String, wholeGroups: Bool = false) throws -> ThumbgenPlan {
        let folder = Fixtures.temporaryDirectory("plugin-plan")
        try FileManager.default.createDirectory(atPath: folder + "/Photos", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.path("pngsuite/basn2c08.png"), toPath: folder + "/Photos/b.png")
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/thumbgen.json"))
        return try ThumbgenPlan(configURL: URL(fileURLWithPath: folder + "/thumbgen.json"), shownAs: "thumbgen.json",
                                workDirectory: URL(fileURLWithPath: folder + "/work"), thumbgen: URL(fileURLWithPath: "/bin/thumbgen"),
                                wholeGroups: wholeGroups)
    }

    /// Formats and any scale: every file declared under the name thumbgen gives it.
    @Test func formatsAndScalesAreDeclared() throws {
        let plan = try plan(#"{ "thumbnails": [{ "source": "Photos", "formats": ["webp", "jpeg"], "scales": [1, 1.5, 2], "quality": {"webp": 70} }] }"#)
        #expect(plan.jobs.count == 1)
        #expect(plan.jobs[0].outputs.map(\.lastPathComponent) == ["b.webp", "b.jpg", "b@1.5x.webp", "b@1.5x.jpg", "b@2x.webp", "b@2x.jpg"])
        let arguments = plan.jobs[0].arguments
        #expect(arguments.suffix(from: 3).starts(with: ["thumbnail", "0"]))
        // The step passes the group's options on; a name's extension chooses the one format.
        let named = try self.plan(#"{ "thumbnails": [{ "source": "Photos", "name": "%s_t.JPG", "scales": [1, 0.75] }] }"#)
        #expect(named.jobs[0].outputs.map(\.lastPathComponent) == ["b_t@0.75x.JPG", "b_t.JPG"])
    }

    /// Names by width depend on each image's size, which a build plugin must declare before any
    /// image is read: refused there, run whole by the command plugin.
    @Test func widthsAreForTheCommandPluginAndBuild() throws {
        let json = #"{ "thumbnails": [{ "source": "Photos", "widths": [320, 640] }] }"#
        #expect(throws: ThumbgenConfigError.self) { try plan(json) }
        do { _ = try plan(json) } catch let error as ThumbgenConfigError {
            #expect(error.description == "thumbgen.json: thumbnails[0].widths: outputs named by the width each image gets cannot be named before the build reads the images; make them with swift package thumbgen or thumbgen build")
        }
        let whole = try plan(json, wholeGroups: true)
        #expect(whole.jobs.count == 1 && whole.jobs[0].outputs.isEmpty && whole.jobs[0].outputFolder != nil)
        #expect(Array(whole.jobs[0].arguments[3...4]) == ["group", "0"])
    }
}
