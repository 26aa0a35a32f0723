#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Ctrl-C and SIGTERM while `glimpse up` runs in the foreground: noted, so the stack stops
/// in order rather than the process dying with its children orphaned.
enum StackSignals {
    private static let received = Atomic<Int32>(0)

    /// From here on SIGINT and SIGTERM are noted instead of ending the process: installed
    /// before the first child starts, so an early Ctrl-C still stops the children.
    static func install() {
        signal(SIGINT) { number in StackSignals.received.store(number, ordering: .relaxed) }
        signal(SIGTERM) { number in StackSignals.received.store(number, ordering: .relaxed) }
    }

    static func restore() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    static var stopRequested: Bool { received.load(ordering: .relaxed) != 0 }

    /// Throws when a stop was asked for while the stack was still starting.
    static func checkStop() throws(CLIFailure) {
        if stopRequested { throw CLIFailure.local("interrupted while starting") }
    }
}

/// Whether something listens on a loopback port.
enum Ports {
    static func inUse(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}
