import CNghttp2
import Testing

/// The per-session allocator nghttp2 is given (shim.h): blocks are reused by size class,
/// realloc keeps contents, calloc zeroes, and the free lists stay within their cap.
@Suite("nghttp2 session allocator")
struct SessionPoolTests {
    @Test func aFreedSmallBlockIsHandedOutAgainForTheSameClass() throws {
        let pool = try #require(glimpse_pool_create())
        defer { glimpse_pool_release(pool) }
        let first = glimpse_pool_malloc(40, pool)
        glimpse_pool_free(first, pool)
        #expect(glimpse_pool_malloc(60, pool) == first)  // 40 and 60 share the 33...64 class
        let other = glimpse_pool_malloc(40, pool)
        #expect(other != first)
        glimpse_pool_free(other, pool)
    }

    @Test func reallocKeepsTheContentsAcrossClassesAndIntoLargeBlocks() throws {
        let pool = try #require(glimpse_pool_create())
        defer { glimpse_pool_release(pool) }
        var block = try #require(glimpse_pool_malloc(20, pool))
        for i in 0..<20 { block.storeBytes(of: UInt8(i), toByteOffset: i, as: UInt8.self) }
        for size in [100, 500, 5000, 70_000] {
            block = try #require(glimpse_pool_realloc(block, size, pool))
            for i in 0..<20 { #expect(block.load(fromByteOffset: i, as: UInt8.self) == UInt8(i)) }
        }
        glimpse_pool_free(block, pool)
    }

    @Test func callocZeroesRecycledBlocksAndRefusesOverflow() throws {
        let pool = try #require(glimpse_pool_create())
        defer { glimpse_pool_release(pool) }
        let dirty = try #require(glimpse_pool_malloc(64, pool))
        dirty.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 64)
        glimpse_pool_free(dirty, pool)
        let clean = try #require(glimpse_pool_calloc(8, 8, pool))
        #expect(clean == dirty)
        #expect((0..<64).allSatisfy { clean.load(fromByteOffset: $0, as: UInt8.self) == 0 })
        glimpse_pool_free(clean, pool)
        #expect(glimpse_pool_calloc(Int.max, 16, pool) == nil)
    }

    @Test func theFreeListsKeepNoMoreThanTheirCap() throws {
        let pool = try #require(glimpse_pool_create())
        defer { glimpse_pool_release(pool) }
        let blocks = (0..<1000).map { _ in glimpse_pool_malloc(32, pool) }
        for block in blocks { glimpse_pool_free(block, pool) }
        #expect(pool.pointee.counts.0 == UInt32(GLIMPSE_POOL_CAP))
    }
}
