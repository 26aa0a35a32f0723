#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files written whole with the mode they must have from their first byte (a key is
/// never readable by others, not even for a moment), and a directory lock, in POSIX
/// terms.
enum PrivateFiles {
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let path: String
        let code: Int32

        var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// Writes `text` to a temporary file created with `mode`, then renames it over `path`:
    /// a reader sees the old file or the new one, never a part.
    static func write(_ text: String, to path: String, mode: mode_t) throws {
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(operation: "open", path: temporary, code: errno) }
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { systemWrite(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                close(fd)
                throw Failure(operation: "write", path: temporary, code: code)
            }
            written += count
        }
        // The mode given to open is masked by the umask; the key's must hold as written.
        // No fsync: a set torn by a crash is found unusable and made anew.
        fchmod(fd, mode)
        guard close(fd) == 0 else { throw Failure(operation: "close", path: temporary, code: errno) }
        guard rename(temporary, path) == 0 else { throw Failure(operation: "rename", path: path, code: errno) }
    }

    static func read(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(operation: "read", path: path, code: errno) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` holding an exclusive lock on `path` (created if missing), so that two
    /// processes preparing the same directory take turns.
    static func withLock<R>(_ path: String, _ body: () throws -> R) throws -> R {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(operation: "lock", path: path, code: errno) }
        }
        return try body()
    }
}

// The enum's `read` and `write` hide the C functions inside it.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, bytes, count) }
