#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a service keeps a store that holds app tokens: its folder is made 0700 (with any
/// missing parents), the SQLite file 0600 before SQLite opens it, so the `-wal` and `-shm`
/// files SQLite makes beside it take the same mode; files an older version left readable by
/// all are closed. A folder that exists keeps its mode (it may be one the user named, such
/// as a volume); the files in it are what must stay private.
package enum PrivateStore {
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// Makes `directory` and its missing parents, mode 0700.
    package static func makeDirectory(_ directory: String) throws {
        var built = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) == 0 { continue }
            guard errno == EEXIST else { throw Failure(path: built, reason: String(cString: strerror(errno))) }
        }
    }

    /// The database at `path` (and its `-wal`, `-shm`), 0600; created empty if missing
    /// (SQLite takes an empty file for a new database).
    package static func prepareDatabase(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        close(fd)
        for file in [path, path + "-wal", path + "-shm"] {
            if chmod(file, 0o600) != 0, errno != ENOENT {
                throw Failure(path: file, reason: String(cString: strerror(errno)))
            }
        }
    }
}
