import Glibc

/// How much memory a run may plan to use, read from the machine: the smallest of physical
/// memory, the cgroup's limit (a container's `memory.max`), and what is left of the address-space
/// and data-segment limits (`ulimit -v`, `prlimit --as`). Half of that is shared among the jobs;
/// the other half is headroom for what no plan counts (the allocator's arenas and fragmentation,
/// thread stacks, the manifest).
package enum MemoryBudget {
    /// The default `--max-memory` for each of `jobs` jobs, in bytes.
    package static func perJob(jobs: Int) -> UInt64 {
        available() / 2 / UInt64(max(jobs, 1))
    }

    /// The memory this process can still count on, in bytes.
    package static func available() -> UInt64 {
        var limits = [physicalMemory()]
        if let cgroup = cgroupLimit() { limits.append(cgroup) }
        let mapped = mappedBytes()
        for resource in [RLIMIT_AS, RLIMIT_DATA] {
            var limit = rlimit()
            if getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max {
                let cap = UInt64(limit.rlim_cur)
                limits.append(cap > mapped ? cap - mapped : 0)
            }
        }
        return limits.min()!
    }

    private static func physicalMemory() -> UInt64 {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? UInt64(pages) * UInt64(size) : UInt64.max
    }

    /// cgroup v2's `memory.max` for this process's group ("max" when unlimited).
    private static func cgroupLimit() -> UInt64? {
        guard let membership = readSmallFile("/proc/self/cgroup") else { return nil }
        // cgroup v2: one line "0::/path".
        guard let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let group = line.dropFirst(3)
        let path = "/sys/fs/cgroup" + (group == "/" ? "" : group) + "/memory.max"
        guard let text = readSmallFile(path), let value = text.split(whereSeparator: \.isWhitespace).first.flatMap({ UInt64($0) }) else { return nil }
        return value
    }

    /// The process's mapped address space now (`/proc/self/statm`, first field, in pages).
    private static func mappedBytes() -> UInt64 {
        guard let text = readSmallFile("/proc/self/statm"),
              let pages = text.split(separator: " ").first.flatMap({ UInt64($0) }) else { return 0 }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The process's peak resident memory so far (`VmHWM` in `/proc/self/status`), in bytes; nil
    /// where /proc does not say. Unlike `getrusage`, it does not carry over the peak of the
    /// process this one was forked from.
    package static func peakResidentBytes() -> UInt64? {
        guard let status = readSmallFile("/proc/self/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) else { return nil }
        return kib * 1024
    }

    /// A /proc or /sys file (a few KiB at most; their sizes read as 0, so read until the end).
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 16 {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { break }
            bytes += chunk[0..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
