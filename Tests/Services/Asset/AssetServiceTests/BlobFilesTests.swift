import AssetEngine
import AssetService
import Foundation
import GlimpseVocabulary
import Testing

/// The content-addressed files: staged, sealed, renamed into place; never partial.
@Suite("Blob files")
struct BlobFilesTests {
    @Test("a staged upload becomes the blob named by its hash; staging is left empty")
    func stageAndCommit() throws {
        let scratch = try Scratch("blobs")
        defer { scratch.remove() }
        let blobs = try BlobFiles(directory: scratch.url)
        let bytes = Images.png(width: 3, height: 3, dataBytes: 5000)
        let hash = ContentHash.of(bytes)
        let upload = blobs.newUpload()
        for start in stride(from: 0, to: bytes.count, by: 777) {
            try blobs.stage(Array(bytes[start..<min(start + 777, bytes.count)]), for: upload)
        }
        try blobs.seal(upload)
        #expect(!blobs.contains(hash))
        try blobs.commitStaged(upload, as: hash)
        #expect(blobs.contains(hash))
        #expect(scratch.blobFiles == [hash.hex])
        #expect(scratch.stagingFiles.isEmpty)
        #expect(try blobs.get(hash, range: nil) == bytes)
        #expect(try blobs.get(hash, range: 10..<20) == Array(bytes[10..<20]))
        #expect(try blobs.get(hash, range: 4990..<9000) == Array(bytes[4990...]))
        let reader = try #require(try blobs.reader(hash))
        #expect(reader.size == bytes.count)
        #expect(try reader.read(at: 100, count: 50) == Array(bytes[100..<150]))
        #expect(try reader.read(at: bytes.count - 3, count: 50) == Array(bytes.suffix(3)))
    }

    @Test("a discarded upload and a deleted blob leave no file; deleting twice is not an error")
    func discardAndDelete() throws {
        let scratch = try Scratch("blobs")
        defer { scratch.remove() }
        let blobs = try BlobFiles(directory: scratch.url)
        let upload = blobs.newUpload()
        try blobs.stage([1, 2, 3], for: upload)
        try blobs.discardStaged(upload)
        #expect(scratch.stagingFiles.isEmpty)
        let hash = ContentHash.of([4, 5])
        try blobs.put([4, 5], as: hash)
        #expect(try blobs.get(hash, range: nil) == [4, 5])
        try blobs.delete(hash)
        try blobs.delete(hash)
        #expect(try blobs.get(hash, range: nil) == nil)
        #expect(try blobs.reader(hash) == nil)
        #expect(scratch.blobFiles.isEmpty)
    }

    @Test("an open reader keeps its bytes when the file is deleted meanwhile (an eviction during a Get)")
    func readerOutlivesDelete() throws {
        let scratch = try Scratch("blobs")
        defer { scratch.remove() }
        let blobs = try BlobFiles(directory: scratch.url)
        let bytes = Images.jpeg(width: 8, height: 8, app1Bytes: 3000)
        let hash = ContentHash.of(bytes)
        try blobs.put(bytes, as: hash)
        let reader = try #require(try blobs.reader(hash))
        try blobs.delete(hash)
        #expect(try reader.read(at: 0, count: bytes.count) == bytes)
    }

    @Test("the engine's own cache runs on the files: chunked put, verified chunked read, eviction deletes files")
    func assetCacheOverFiles() throws {
        let scratch = try Scratch("blobs")
        defer { scratch.remove() }
        var limits = AssetLimits.defaults
        limits.byteBudget = 12_000
        var cache = AssetCache(
            engine: AssetCatalog(clock: VirtualClock(), limits: limits), store: try BlobFiles(directory: scratch.url))
        let images = (0..<3).map { Images.png(width: 20, height: 20, dataBytes: 5000, seed: UInt8($0)) }
        for (i, bytes) in images.enumerated() { _ = try cache.put("app/\(i)", bytes, chunkSize: 999) }
        // Two fit: the first was evicted, and its file is gone.
        #expect(scratch.blobFiles == Set(images.dropFirst().map { ContentHash.of($0).hex }))
        var reader = try cache.read(try AssetName("app/2"), chunkSize: 1000)
        #expect(try reader.readAll() == images[2])
        #expect(scratch.stagingFiles.isEmpty)
    }
}
