import Testing
@testable import AssetEngine
import EngineTesting
import GlimpseVocabulary

@Suite("Content-addressed store (SHA-256)")
struct ContentStoreTests {
    @Test("the same bytes are stored once under two names; the hash is the ETag")
    func deduplication() throws {
        var cache = makeCache()
        let bytes = ImageFixtures.png(width: 100, height: 80)
        let first = try cache.put("com.example.pizza/drivers/tim", bytes)
        let second = try cache.put("com.example.pizza/drivers/default", bytes)
        #expect(!first.answer.deduplicated)
        #expect(second.answer.deduplicated)
        #expect(first.answer.metadata.hash == ContentHash.of(bytes))
        #expect(first.answer.metadata.etag == "\"\(ContentHash.of(bytes).hex)\"")
        #expect(cache.store.storedHashes == [ContentHash.of(bytes)])
        #expect(cache.engine.usedBytes == bytes.count)
    }

    @Test("names are re-pointable; the old blob goes when no name holds it")
    func repoint() throws {
        var cache = makeCache()
        let tim = ImageFixtures.png(width: 64, height: 64)
        let john = ImageFixtures.jpeg(width: 64, height: 64)
        _ = try cache.put("com.example.pizza/driver", tim)
        let moved = try cache.put("com.example.pizza/driver", john)
        #expect(moved.answer.replaced == ContentHash.of(tim))
        #expect(moved.effects.contains(.delete(ContentHash.of(tim))))
        #expect(cache.store.storedHashes == [ContentHash.of(john)])
        #expect(try cache.readAll("com.example.pizza/driver") == john)
    }

    @Test(
        "chunked put and get: any chunk sizes round-trip the bytes",
        arguments: [(1, 7), (7, 10), (4096, 1), (100_000, 64 << 10)])
    func chunkedRoundTrip(putChunk: Int, getChunk: Int) throws {
        var cache = makeCache()
        let bytes =
            ImageFixtures.jpeg(width: 400, height: 300, app1Bytes: 5_000)
            + (0..<20_000).map { UInt8(truncatingIfNeeded: $0) }
        _ = try cache.put("app/photo", bytes, chunkSize: putChunk)
        var reader = try cache.read(name("app/photo"), chunkSize: getChunk)
        var chunks = 0
        var out: [UInt8] = []
        while let chunk = try reader.next() {
            #expect(chunk.count <= getChunk)
            out += chunk
            chunks += 1
        }
        #expect(out == bytes)
        #expect(chunks == (bytes.count + getChunk - 1) / getChunk)
    }

    @Test("an upload whose SHA-256 differs from the announced one is refused and nothing is kept")
    func integrityOnPut() throws {
        var cache = makeCache()
        let bytes = ImageFixtures.png(width: 10, height: 10)
        let wrong = ContentHash.of([1, 2, 3])
        #expect(throws: AssetError.integrityMismatch(expected: wrong, actual: ContentHash.of(bytes))) {
            _ = try cache.put("app/icon", bytes, chunkSize: 5, expectedHash: wrong)
        }
        #expect(cache.store.storedHashes.isEmpty)
        #expect(cache.store.stagedBytes == 0)
        #expect(throws: Never.self) { _ = try cache.put("app/icon", bytes, expectedHash: ContentHash.of(bytes)) }
    }

    @Test("an upload shorter than its announced size is refused")
    func sizeMismatch() throws {
        var cache = makeCache()
        let bytes = ImageFixtures.png(width: 10, height: 10)
        var upload = try cache.beginUpload("app/icon", totalSize: bytes.count + 1)
        try cache.append(bytes, to: &upload)
        #expect(throws: AssetError.sizeMismatch(expected: bytes.count + 1, received: bytes.count)) {
            _ = try cache.finish(upload)
        }
    }

    @Test("a get checks integrity: corrupt stored bytes fail before the last chunk is yielded")
    func integrityOnGet() throws {
        var cache = makeCache()
        let bytes = ImageFixtures.png(width: 10, height: 10, dataBytes: 200)
        let stored = try cache.put("app/icon", bytes)
        var corrupt = bytes
        corrupt[100] ^= 0xFF
        cache.store.put(corrupt, as: stored.answer.metadata.hash)
        var reader = try cache.read(name("app/icon"), chunkSize: 64)
        var yielded: [UInt8] = []
        #expect(throws: AssetError.blobCorrupt(stored.answer.metadata.hash)) {
            while let chunk = try reader.next() { yielded += chunk }
        }
        #expect(yielded.count < bytes.count)
    }

    @Test("an unknown name cannot be read; a removed name is unknown and its blob deleted")
    func unknownAndRemoved() throws {
        var cache = makeCache()
        #expect(throws: AssetError.unknownAsset(name("app/none"))) { _ = try cache.read(name("app/none")) }
        _ = try cache.put("app/icon", ImageFixtures.png(width: 5, height: 5))
        try cache.remove(name("app/icon"))
        #expect(cache.engine.lookup(name("app/icon")) == .unknown(name("app/icon")))
        #expect(cache.store.storedHashes.isEmpty)
    }
}
