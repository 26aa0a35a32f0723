#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import AssetEngine
import Synchronization

/// The content-addressed store on disk: one file per blob, `<data-dir>/blobs/<sha256>`,
/// shared by every name of every app that holds those bytes. Uploads are written to
/// `<data-dir>/staging/` as they arrive and renamed into place once verified.
///
/// Invariants:
/// - A file under `blobs/` was complete and fsynced before it got its name (written in
///   staging, `seal`ed, renamed, the directory fsynced): a blob file is never partial.
/// - Blob files are never written in place; their bytes hash to their name unless the
///   disk (or someone) changed them, which readers detect.
/// - Only this type creates or removes files under the two directories.
package final class BlobFiles: BlobStore {
    package let blobsDirectory: String
    package let stagingDirectory: String
    private let staged = Mutex<[UploadID: Int32]>([:])
    private let uploads = Atomic<UInt64>(0)
    /// Blob files whose bytes are known to hash to their name, as they were then: written
    /// here from hashed bytes, or read and hashed since the start.
    private let verified = Mutex<[ContentHash: FileStamp]>([:])

    /// Creates `blobs/` and `staging/` under `directory` if needed.
    package init(directory: URL) throws {
        blobsDirectory = directory.appendingPathComponent("blobs").path
        stagingDirectory = directory.appendingPathComponent("staging").path
        for path in [blobsDirectory, stagingDirectory] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    /// A fresh staging area (unique in this process; staging is emptied at every start).
    package func newUpload() -> UploadID {
        UploadID(uploads.add(1, ordering: .relaxed).newValue)
    }

    package func path(of hash: ContentHash) -> String { blobsDirectory + "/" + hash.hex }

    func stagingPath(_ upload: UploadID) -> String { stagingDirectory + "/" + upload.description }

    // MARK: BlobStore

    /// Writes a whole blob (staged, fsynced, renamed into place) as given: it is not known
    /// to hash to `hash` until a read verifies it.
    package func put(_ bytes: [UInt8], as hash: ContentHash) throws {
        let upload = newUpload()
        do {
            try stage(bytes, for: upload)
            try place(upload, as: hash)
        } catch {
            try? discardStaged(upload)
            throw error
        }
    }

    package func get(_ hash: ContentHash, range: Range<Int>?) throws -> [UInt8]? {
        guard let reader = try BlobReader(path: path(of: hash)) else { return nil }
        let wanted = (range ?? 0..<reader.size).clamped(to: 0..<reader.size)
        return try reader.read(at: wanted.lowerBound, count: wanted.count)
    }

    package func delete(_ hash: ContentHash) throws {
        _ = verified.withLock { $0.removeValue(forKey: hash) }
        try Self.check(unlink(path(of: hash)), "unlink", path(of: hash), allowing: ENOENT)
    }

    package func stage(_ chunk: [UInt8], for upload: UploadID) throws {
        let fd = try stagingDescriptor(upload)
        try chunk.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw BlobFileError(operation: "write", path: stagingPath(upload), code: errno)
                }
                offset += n
            }
        }
    }

    /// Flushes a staged upload to the disk: done before its name is journaled.
    package func seal(_ upload: UploadID) throws {
        let fd = try stagingDescriptor(upload)
        try Self.check(fsync(fd), "fsync", stagingPath(upload))
    }

    /// Renames a verified upload into place: the catalog commits only uploads whose bytes
    /// hashed to `hash` as they arrived, so the file is known good as written.
    package func commitStaged(_ upload: UploadID, as hash: ContentHash) throws {
        try place(upload, as: hash)
        if let reader = try reader(hash) { markVerified(hash, reader.stamp) }
    }

    private func place(_ upload: UploadID, as hash: ContentHash) throws {
        try seal(upload)  // a no-op write-back when already sealed
        if let fd = staged.withLock({ $0.removeValue(forKey: upload) }) { close(fd) }
        _ = verified.withLock { $0.removeValue(forKey: hash) }
        try Self.check(rename(stagingPath(upload), path(of: hash)), "rename", stagingPath(upload))
        try syncDirectory(blobsDirectory)
    }

    package func discardStaged(_ upload: UploadID) throws {
        if let fd = staged.withLock({ $0.removeValue(forKey: upload) }) { close(fd) }
        try Self.check(unlink(stagingPath(upload)), "unlink", stagingPath(upload), allowing: ENOENT)
    }

    // MARK: Reading and listing

    /// An open blob file to stream from; nil when there is none.
    package func reader(_ hash: ContentHash) throws -> BlobReader? {
        try BlobReader(path: path(of: hash))
    }

    /// Whether the file a reader opened is the one last verified for `hash`, unchanged.
    package func isVerified(_ hash: ContentHash, _ stamp: FileStamp) -> Bool {
        verified.withLock { $0[hash] == stamp }
    }

    /// The file as `stamp` describes it hashes to `hash`.
    package func markVerified(_ hash: ContentHash, _ stamp: FileStamp) {
        verified.withLock { $0[hash] = stamp }
    }

    package func contains(_ hash: ContentHash) -> Bool {
        access(path(of: hash), F_OK) == 0
    }

    /// The names of the files under `blobs/` (a SHA-256 each, unless someone put others there).
    func blobFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: blobsDirectory)
    }

    /// What staging holds: uploads in flight, or left by a crash (see `AssetServer.reconcile`).
    func stagingFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: stagingDirectory)
    }

    // MARK: Helpers

    private func stagingDescriptor(_ upload: UploadID) throws -> Int32 {
        try staged.withLock { staged in
            if let fd = staged[upload] { return fd }
            let path = stagingPath(upload)
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw BlobFileError(operation: "open", path: path, code: errno) }
            staged[upload] = fd
            return fd
        }
    }

    /// Makes a rename in `directory` durable.
    func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw BlobFileError(operation: "open", path: directory, code: errno) }
        defer { close(fd) }
        try Self.check(fsync(fd), "fsync", directory)
    }

    static func check(_ result: Int32, _ operation: String, _ path: String, allowing allowed: Int32? = nil) throws {
        guard result != 0 else { return }
        let code = errno
        if let allowed, code == allowed { return }
        throw BlobFileError(operation: operation, path: path, code: code)
    }
}

/// A system call on a blob file failed.
package struct BlobFileError: Error, Sendable, CustomStringConvertible {
    package var operation: String
    package var path: String
    package var code: Int32

    package var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}
