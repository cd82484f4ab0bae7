import Foundation
import Testing
import TestSupport

/// The golden suite (Scripts/golden-suite.sh: PNG, JPEG, WebP and HEIF inputs; every fit and
/// kernel, corners, rating badges, every format, star badges, a sheet, an icon set) gives the same
/// bytes when every libm result is an ulp off: a libm shim (Tests/Fixtures/libm-shim/ulp-shim.c,
/// built here with cc) preloaded into the built thumbgen moves each `sin`, `cos`, `pow`, `exp`,
/// `log`, … result one ulp up or down at random.
@Suite(.serialized) struct PlatformMathTests {
    static let repository = Fixtures.repository.path

    /// Runs the golden suite with `environment` added; the counts file is the shim's, when preloaded.
    static func suite(into out: String, environment: [String: String] = [:]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [repository + "/Scripts/golden-suite.sh", BuiltBinary.path, out]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Every file the suite wrote, but the manifests (they record the sources' inodes and change
    /// times, which differ between two copies of the inputs), by path below `root`.
    static func outputs(under root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in Fixtures.files(under: root) where !path.hasPrefix("in/") && !path.hasSuffix("thumbgen-manifest.json") {
            files[path] = FileManager.default.contents(atPath: root + "/" + path)
        }
        return files
    }

    static func buildShim(in folder: String) throws -> String {
        let library = folder + "/ulp-shim.so"
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-O2", "-o", library, Fixtures.path("libm-shim/ulp-shim.c"), "-ldl", "-lm"]
        try cc.run()
        cc.waitUntilExit()
        #expect(cc.terminationStatus == 0, "cc builds the shim")
        return library
    }

    @Test func aLibmOneUlpOffChangesNoByte() throws {
        let work = Fixtures.temporaryDirectory("platform-math")
        let shim = try Self.buildShim(in: work)

        // The shim works: Python's math.sin goes through libm and comes back moved.
        let canary = Process()
        canary.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        canary.arguments = ["-c", "import math; print(repr(math.sin(1.0)), repr(math.pow(3.0, 0.7)))"]
        func canaryOutput(_ environment: [String: String]) throws -> String {
            let process = Process()
            process.executableURL = canary.executableURL
            process.arguments = canary.arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        #expect(try canaryOutput([:]) != canaryOutput(["LD_PRELOAD": shim]), "the shim moves libm's results")

        #expect(try Self.suite(into: work + "/plain") == 0)
        let plain = Self.outputs(under: work + "/plain")
        #expect(plain.count > 250, "the suite wrote its outputs")
        for seed in ["1", "28"] {
            let counts = work + "/counts-\(seed)"
            #expect(try Self.suite(into: work + "/shim-\(seed)",
                                   environment: ["LD_PRELOAD": shim, "ULP_SHIM_SEED": seed, "ULP_SHIM_COUNT": counts]) == 0)
            let moved = Self.outputs(under: work + "/shim-\(seed)")
            #expect(moved.keys.sorted() == plain.keys.sorted())
            let differing = plain.keys.sorted().filter { plain[$0] != moved[$0] }
            #expect(differing.isEmpty, "differ under the shim (seed \(seed)): \(differing.prefix(10))")
            // thumbgen's own code calls none of them; what the shim moved were calls from the
            // libraries (lcms2, libwebp's encoder), whose output it did not change either.
            let lines = try String(contentsOfFile: counts, encoding: .utf8).split(separator: "\n")
            #expect(lines.count >= 20, "every thumbgen process ran with the shim")
            let own = lines.map { Int($0.split(separator: " ")[1]) ?? -1 }.reduce(0, +)
            #expect(own == 0, "calls from thumbgen's own code to libm's transcendental functions")
        }
        try? FileManager.default.removeItem(atPath: work)
    }
}
