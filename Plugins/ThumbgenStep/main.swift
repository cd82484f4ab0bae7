#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// thumbgen-plugin-step: what every build command of ThumbgenPlugin runs. It reads thumbgen.json
// when the command runs, not when the build was planned, and then becomes thumbgen (execv).
//
// Why a step between the build system and thumbgen: SwiftPM runs build tool plugins only when it
// plans the build again (a manifest changed, a file was added or removed), not on every build, so
// arguments baked in by the plugin would go stale when only thumbgen.json's contents change. Each
// command lists thumbgen.json as an input; when it changes, the commands rerun, and this step
// takes the options from the file as it is now.
//
//   thumbgen-plugin-step THUMBGEN CONFIG SHOWN thumbnail GROUP IMAGE OUTDIR NAME...
//   thumbgen-plugin-step THUMBGEN CONFIG SHOWN group GROUP OUTDIR
//   thumbgen-plugin-step THUMBGEN CONFIG SHOWN stars SET SETDIR NAME...
//   thumbgen-plugin-step THUMBGEN CONFIG SHOWN icons SET SETDIR NAME...
//
// SHOWN is the config's name in messages; NAME... are the outputs the build was planned with. If
// the file now asks for other outputs, the step fails saying so: the planned outputs are all the
// build system will pick up until it plans again.

func fail(_ message: String) -> Never {
    let line = Array(("error: " + message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n > 0 { bytes += buffer[0..<n] }
        if n < buffer.count { return ferror(file) == 0 ? bytes : nil }
    }
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

func writeFile(_ bytes: [UInt8], _ path: String) -> Bool {
    if readFile(path) == bytes { return true }
    guard let file = fopen(path + ".tmp", "wb") else { return false }
    let ok = fwrite(bytes, 1, bytes.count, file) == bytes.count
    return fclose(file) == 0 && ok && rename(path + ".tmp", path) == 0
}

func makeDirectories(_ path: String) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        prefix += "/" + part
        if !isDirectory(prefix) { mkdir(prefix, 0o755) }
    }
}

/// Runs `program` with `arguments` and waits for it; its exit status (or 1 when it could not run).
func runAndWait(_ program: String, _ arguments: [String]) -> Int32 {
    var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) }
    argv.append(nil)
    var pid = pid_t()
    guard posix_spawn(&pid, program, nil, nil, &argv, environ) == 0 else { return 1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 1
}

/// Replaces this process with `program` run with `arguments` (argv[0] is the program).
func become(_ program: String, _ arguments: [String]) -> Never {
    var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) }
    argv.append(nil)
    execv(program, &argv)
    fail("cannot run \(program): \(String(cString: strerror(errno)))")
}

let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 6, let index = Int(args[4]) else {
    fail("usage: thumbgen-plugin-step THUMBGEN CONFIG SHOWN thumbnail|stars INDEX ... (run by ThumbgenPlugin)")
}
let thumbgen = args[0], configPath = args[1], shown = args[2], kind = args[3]
let base = configPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
func inBase(_ path: String) -> String { base.isEmpty ? path : base + "/" + path }

guard let bytes = readFile(configPath) else { fail("\(shown): cannot read the file") }
let config: ThumbgenConfig
do {
    config = try ThumbgenConfig(bytes: bytes, file: shown, readFile: { readFile(inBase($0)) },
                                isDirectory: { isDirectory(inBase($0)) })
} catch {
    fail(error.description)
}

func stalePlan(_ member: String, now: [String], planned: [String]) -> Never {
    fail("\(shown): \(member): now makes \(now.isEmpty ? "nothing" : now.joined(separator: ", ")) but the build was planned for "
         + "\(planned.joined(separator: ", ")); SwiftPM plans again when Package.swift or the list of files changes: "
         + "touch Package.swift and build again")
}

switch kind {
case "thumbnail":
    guard args.count >= 8 else { fail("thumbgen-plugin-step: missing arguments") }
    let image = args[5], outputDirectory = args[6], planned = Array(args[7...])
    let member = "thumbnails[\(index)]"
    guard index < config.thumbnails.count else { stalePlan(member, now: [], planned: planned) }
    let group = config.thumbnails[index]
    let prefix = inBase(group.source) + "/"
    guard image.hasPrefix(prefix) else { stalePlan(member + ".source", now: [], planned: planned) }
    let name = String(image.split(separator: "/").last!)
    let names = group.outputNames(forImageNamed: name)
    guard names == planned else { stalePlan(member, now: names, planned: planned) }
    become(thumbgen, [image, "-o", outputDirectory] + group.options
        // The build system decides what is out of date, so thumbgen always writes: its own
        // manifest check would leave a touched image's outputs with their old dates.
        + ["--force", "--no-fsync", "-j", "1", "--progress", "never", "-q"])
case "group":
    // A whole group at once (widths: names depend on each image's size), for the command plugin,
    // which finds the files in OUTDIR afterwards. Incremental through thumbgen's own manifest.
    let outputDirectory = args[5]
    let member = "thumbnails[\(index)]"
    guard index < config.thumbnails.count else { stalePlan(member, now: [], planned: ["the whole group"]) }
    let group = config.thumbnails[index]
    become(thumbgen, [inBase(group.source), "-o", outputDirectory] + group.options
        + ["--prune", "--no-fsync", "-j", "1", "--progress", "never", "-q"])
case "stars":
    let setDirectory = args[5], planned = Array(args[6...])
    let member = "stars[\(index)]"
    guard index < config.stars.count else { stalePlan(member, now: [], planned: planned) }
    let set = config.stars[index]
    guard set.outputNames == planned else { stalePlan(member, now: set.outputNames, planned: planned) }
    // The spec thumbgen reads: written here, when the command runs (not an output, so not a
    // resource).
    makeDirectories(setDirectory)
    let spec = setDirectory + "/spec.json"
    guard writeFile(Array(set.specJSON.utf8), spec) else { fail("cannot write \(spec): \(String(cString: strerror(errno)))") }
    // `thumbgen stars` reports "15 badges written to …" on standard output; a build log needs
    // only failures, which go to standard error.
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 { dup2(null, 1) }
    become(thumbgen, ["stars", "--spec", spec, "-o", setDirectory + "/png"])
case "icons":
    let setDirectory = args[5], planned = Array(args[6...])
    let member = "icons[\(index)]"
    guard index < config.icons.count else { stalePlan(member, now: [], planned: planned) }
    let group = config.icons[index]
    let names = group.pngPaths.map(ThumbgenConfig.IconGroup.resourceName)
    guard names == planned else { stalePlan(member, now: names, planned: planned) }
    // The set's paths are relative to thumbgen.json's folder; the outputs' are absolute.
    if !base.isEmpty && chdir(base) != 0 { fail("cannot enter \(base): \(String(cString: strerror(errno)))") }
    let status = runAndWait(thumbgen, ["icons", group.source, "-o", setDirectory + "/set"] + group.options
        + ["--force", "--no-fsync", "--progress", "never", "-q"])
    guard status == 0 else { exit(status) }
    // Resources are flat: each PNG under its path with '/' as '-'.
    makeDirectories(setDirectory + "/png")
    for path in group.pngPaths {
        guard let bytes = readFile(setDirectory + "/set/" + path) else { fail("\(shown): \(member): thumbgen wrote no \(path)") }
        let target = setDirectory + "/png/" + ThumbgenConfig.IconGroup.resourceName(path)
        guard writeFile(bytes, target) else { fail("cannot write \(target): \(String(cString: strerror(errno)))") }
    }
default:
    fail("thumbgen-plugin-step: unknown step \(kind)")
}
