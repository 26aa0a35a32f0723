#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open blob file. The descriptor stays valid if the file is deleted meanwhile (an
/// eviction during a Get): the reader finishes with the bytes it opened.
package final class BlobReader: Sendable {
    let descriptor: Int32
    package let path: String
    package let size: Int
    /// What the file was when opened: a file changed since it was verified has another.
    package let stamp: FileStamp

    /// Nil when the file does not exist.
    init?(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw BlobFileError(operation: "open", path: path, code: errno)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw BlobFileError(operation: "fstat", path: path, code: code)
        }
        descriptor = fd
        self.path = path
        size = Int(info.st_size)
        stamp = FileStamp(info)
    }

    deinit { close(descriptor) }

    /// `count` bytes from `offset`; fewer only at the end of the file.
    package func read(at offset: Int, count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let n = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw BlobFileError(operation: "pread", path: path, code: errno)
                }
                if n == 0 { break }
                initialized += n
            }
        }
    }
}

/// A file's identity and last change as the file system keeps them: writing to a file,
/// replacing it or touching it gives another stamp (its inode, size, mtime or ctime move).
package struct FileStamp: Sendable, Hashable {
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}
