import Foundation
import Testing
import TestSupport
@testable import ThumbKit

/// The sRGB tables are constants made by Scripts/make-srgb-tables.py, and the C modules that do
/// floating-point arithmetic fuse no multiply-adds: no pixel depends on the platform's libm or CPU.
@Suite struct SRGBTableTests {
    /// The checked-in file is what the script writes today.
    @Test func theScriptWritesTheCheckedInTables() throws {
        let script = Fixtures.repository.appendingPathComponent("Scripts/make-srgb-tables.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--print"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let generated = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let checkedIn = try Data(contentsOf: Fixtures.repository.appendingPathComponent("Sources/CSRGBTables/srgb_tables.c"))
        #expect(generated == checkedIn, "run Scripts/make-srgb-tables.py")
    }

    /// The constants are the curve: within one float ulp of the double-precision formula, and
    /// monotonic, with exact ends.
    @Test func theTablesAreTheCurve() {
        func close(_ table: Float, _ reference: Double) -> Bool { abs(Double(table) - reference) <= Double(table.ulp) }
        for k in 0...255 { #expect(close(SRGB.linearFromByte[k], SRGB.decode(Double(k) / 255)), "byte \(k)") }
        for k in 0..<255 { #expect(close(SRGB.byteThresholds[k], SRGB.decode((Double(k) + 0.5) / 255)), "threshold \(k)") }
        for k in stride(from: 0, to: 65536, by: 7) {
            #expect(close(SRGB.linearFromSample16[k], SRGB.decode(Double(k) / 65535)), "sample \(k)")
        }
        #expect(SRGB.linearFromByte[0] == 0 && SRGB.linearFromByte[255] == 1)
        #expect(SRGB.linearFromSample16[0] == 0 && SRGB.linearFromSample16[65535] == 1)
        #expect(zip(SRGB.linearFromSample16, SRGB.linearFromSample16.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Every C file with `float` or `double` arithmetic turns contraction off, as CThumbKernels
    /// does (Package.swift takes no unsafe flags, so it is a pragma in each file).
    @Test func everyFloatingPointCModuleTurnsContractionOff() throws {
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".c") }.sorted()
        var checked = 0
        for file in files where !file.hasSuffix("srgb_tables.c") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            guard text.range(of: #"\b(float|double)\b"#, options: .regularExpression) != nil else { continue }
            checked += 1
            #expect(text.contains("#pragma clang fp contract(off)"), "\(file)")
        }
        #expect(checked >= 3)
    }
}
