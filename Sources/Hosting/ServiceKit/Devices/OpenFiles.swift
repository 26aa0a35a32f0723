#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit. A device's open store holds three files (the SQLite file,
/// its WAL and shared memory), so a process with many devices needs more than the usual soft
/// limit of 1,024; past what the limit holds, stores take turns (`OpenDatabases`).
package enum OpenFiles {
    /// Raises the soft limit so that it holds `needed` files: to the hard limit, and past it
    /// when the process may raise that too (root, or CAP_SYS_RESOURCE; never past the
    /// system's `fs.nr_open`). Never lowers either limit. Returns the soft limit now in force
    /// (nil when it cannot be read).
    @discardableResult
    package static func raise(toHold needed: UInt64) -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        if limit.rlim_cur >= needed { return UInt64(limit.rlim_cur) }
        if limit.rlim_max < needed {
            let most = systemMost.map { min($0, needed) } ?? needed
            if most > limit.rlim_max {
                var raised = limit
                raised.rlim_cur = rlim_t(most)
                raised.rlim_max = rlim_t(most)
                // Refused (EPERM) without the privilege: the hard limit stays what it was.
                if setrlimit(Self.resource, &raised) == 0 { return most }
            }
        }
        guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        return setrlimit(Self.resource, &raised) == 0 ? UInt64(raised.rlim_cur) : UInt64(limit.rlim_cur)
    }

    /// The soft limit in force.
    package static var current: UInt64? {
        var limit = rlimit()
        return getrlimit(Self.resource, &limit) == 0 ? UInt64(limit.rlim_cur) : nil
    }

    /// The most open files the system lets one process have (Linux's `fs.nr_open`).
    static var systemMost: UInt64? {
        guard let file = fopen("/proc/sys/fs/nr_open", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 32)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let digits = line.prefix { $0 >= 0x30 && $0 <= 0x39 }.map { UInt8(bitPattern: $0) }
        return UInt64(String(decoding: digits, as: UTF8.self))
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
