#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit. Every device a process holds keeps its journal open
/// (the SQLite file, its WAL and shared memory), so a process with many devices needs more
/// than the usual soft limit of 1,024; the hard limit is what the system allows it.
package enum OpenFiles {
    /// Raises the soft limit to the hard one; returns the limit now in force (nil when it
    /// cannot be read).
    @discardableResult
    package static func raiseToHardLimit() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        return setrlimit(Self.resource, &raised) == 0 ? UInt64(raised.rlim_cur) : UInt64(limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
