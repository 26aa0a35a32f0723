#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with the system's reason on failure ("No such file or
/// directory"), for messages that say what went wrong.
enum Files {
    struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func read(_ path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: path, reason: lastError()) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                // A directory opens for reading; reading it fails with EISDIR.
                if errno == EISDIR { throw Failure(path: path, reason: "is a directory") }
                throw Failure(path: path, reason: lastError())
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Appends a line to `path` (created when missing), in one write.
    static func appendLine(_ line: String, to path: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: path, reason: lastError()) }
        defer { close(fd) }
        let bytes = Array((line + "\n").utf8)
        var written = -1
        repeat {
            written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress!, bytes.count) }
        } while written < 0
            && errno == EINTR
        guard written == bytes.count else { throw Failure(path: path, reason: lastError()) }
    }

    /// Writes through a temporary file renamed over `path`, so a reader never sees half.
    /// `mode` holds from the first byte (0o600 for a secret: a token, a key).
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)  // one a crash left: O_EXCL below must create the file, with `mode`
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(path: path, reason: lastError()) }
        fchmod(fd, mode)  // open's mode is masked by the umask
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = lastError()
                close(fd)
                unlink(temporary)
                throw Failure(path: path, reason: reason)
            }
            offset += written
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else {
            let reason = lastError()
            unlink(temporary)
            throw Failure(path: path, reason: reason)
        }
    }

    /// The directory part of `path` ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// `relative` against `directory`, unless it is absolute.
    static func resolve(_ relative: String, against directory: String) -> String {
        if relative.hasPrefix("/") { return relative }
        if directory == "." { return relative }
        return directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.read(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.read(fd, buffer, count)
    #else
    Glibc.read(fd, buffer, count)
    #endif
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.write(fd, buffer, count)
    #else
    Glibc.write(fd, buffer, count)
    #endif
}

extension Files {
    /// Removes a file; false when it was not there.
    @discardableResult
    static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Makes a directory and its parents (like mkdir -p); those it makes get `mode`.
    static func makeDirectory(_ path: String, mode: mode_t = 0o755) throws(Failure) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, mode) == 0 {
                chmod(built, mode)  // mkdir's mode is masked by the umask
            } else if errno != EEXIST {
                throw Failure(path: built, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// A folder for secrets (tokens, keys): made 0700 with any missing parents, and an
    /// existing one closed to group and others. Only for folders that hold secrets and
    /// nothing else (`<stack>/tokens`, `--tokens`, `<stack>/apns`).
    static func makePrivateDirectory(_ path: String) throws(Failure) {
        try makeDirectory(path, mode: 0o700)
        guard chmod(path, 0o700) == 0 else { throw Failure(path: path, reason: lastError()) }
    }

    /// Closes an existing file to group and others (one an older glimpse wrote 0644).
    static func makePrivate(_ path: String) {
        chmod(path, 0o600)
    }

    /// Writes a secret: 0600, through a temporary file (see `write`).
    static func writeSecret(_ text: String, to path: String) throws(Failure) {
        try write(Array(text.utf8), to: path, mode: 0o600)
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
