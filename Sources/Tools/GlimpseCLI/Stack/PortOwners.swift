#if canImport(Glibc)
import Glibc
#endif

/// Which processes listen on a loopback TCP port, from /proc (the kernel's socket table and
/// each process's open files): how `glimpse down` finds a member started again by hand.
enum PortOwners {
    static func pids(listeningOn port: Int) -> [Int32] {
        let inodes = listeningInodes(port: port)
        guard !inodes.isEmpty, let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var owners: [Int32] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), let fds = opendir("/proc/\(pid)/fd") else { continue }
            defer { closedir(fds) }
            while let fd = readdir(fds) {
                let fdName = withUnsafeBytes(of: fd.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                var target = [CChar](repeating: 0, count: 64)
                let count = readlink("/proc/\(pid)/fd/\(fdName)", &target, target.count - 1)
                guard count > 0 else { continue }
                let link = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if link.hasPrefix("socket:["), let inode = UInt64(link.dropFirst(8).dropLast()), inodes.contains(inode)
                {
                    owners.append(pid)
                    break
                }
            }
        }
        return owners
    }

    /// The socket inodes listening on `port` (IPv4 and IPv6).
    private static func listeningInodes(port: Int) -> Set<UInt64> {
        var inodes = Set<UInt64>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let bytes = try? Files.read(table) else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st … inode: the state 0A is LISTEN.
                guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                    Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port,
                    let inode = UInt64(fields[9])
                else { continue }
                inodes.insert(inode)
            }
        }
        return inodes
    }
}
