import GlimpseVocabulary
import Testing
@testable import AssetEngine
import EngineTesting

@Suite("Byte budget, LRU eviction, pins, prefetch hints")
struct EvictionTests {
    /// Three distinct PNGs of the same size; the budget holds exactly two.
    static func images() -> [[UInt8]] {
        (1...4).map { ImageFixtures.png(width: UInt32($0), height: 1, dataBytes: 1000) }
    }
    static func cache() -> AssetCache<InMemoryBlobStore> { makeCache(AssetLimits(byteBudget: 2 * images()[0].count)) }

    @Test("over the byte budget the least recently used blob is evicted; its name becomes evicted")
    func lruEviction() throws {
        var cache = Self.cache()
        let img = Self.images()
        _ = try cache.put("app/a", img[0])
        _ = try cache.put("app/b", img[1])
        _ = try cache.readAll("app/a")  // a is now more recent than b
        let c = try cache.put("app/c", img[2])
        #expect(c.effects.first == .delete(ContentHash.of(img[1])))
        #expect(cache.engine.lookup(name("app/b")) == .evicted(name("app/b"), ContentHash.of(img[1])))
        #expect(throws: AssetError.evicted(name("app/b"), ContentHash.of(img[1]))) { _ = try cache.read(name("app/b")) }
        #expect(cache.store.storedHashes == [ContentHash.of(img[0]), ContentHash.of(img[2])])
        #expect(cache.engine.usedBytes <= cache.engine.limits.byteBudget)
    }

    @Test("assets pinned by a widget entry or live activity are not evicted; unpinning releases them")
    func pins() throws {
        var cache = Self.cache()
        let img = Self.images()
        _ = try cache.put("app/a", img[0])
        _ = try cache.put("app/b", img[1])
        cache.engine.pin([name("app/a")], holder: "widget:home-1")
        cache.engine.pin([name("app/b")], holder: "activity:42")
        #expect(throws: AssetError.budgetExhausted(needed: img[2].count, evictable: 0)) {
            _ = try cache.put("app/c", img[2])
        }
        #expect(cache.store.stagedBytes == 0)
        cache.engine.unpin(holder: "activity:42")
        let c = try cache.put("app/c", img[2])
        #expect(c.effects.first == .delete(ContentHash.of(img[1])))
        #expect(cache.engine.lookup(name("app/a")) != .evicted(name("app/a"), ContentHash.of(img[0])))
    }

    @Test(
        "a pin follows its name: re-pinning a holder replaces its set; two holders keep a name pinned until both let go"
    )
    func pinSets() {
        var engine = AssetCatalog(clock: VirtualClock())
        engine.pin([name("app/a"), name("app/b")], holder: "h1")
        engine.pin([name("app/b")], holder: "h2")
        engine.pin([name("app/a")], holder: "h1")
        #expect(engine.isPinned(name("app/a")) && engine.isPinned(name("app/b")))
        engine.unpin(holder: "h2")
        #expect(!engine.isPinned(name("app/b")))
        engine.unpin(holder: "h1")
        #expect(!engine.isPinned(name("app/a")))
    }

    @Test("replacing a pinned name's bytes frees its old blob, so it fits where eviction alone could not")
    func repointPinned() throws {
        var cache = Self.cache()
        let img = Self.images()
        _ = try cache.put("app/a", img[0])
        _ = try cache.put("app/b", img[1])
        cache.engine.pin([name("app/a"), name("app/b")], holder: "entry")
        let moved = try cache.put("app/a", img[2])
        #expect(moved.answer.replaced == ContentHash.of(img[0]))
        #expect(cache.engine.usedBytes == 2 * img[0].count)
    }

    @Test("the prefetch hint names what upcoming entries reference but is missing (unknown or evicted)")
    func prefetch() throws {
        var cache = Self.cache()
        let img = Self.images()
        _ = try cache.put("app/a", img[0])
        _ = try cache.put("app/b", img[1])
        _ = try cache.put("app/c", img[2])  // evicts a
        let hint = cache.engine.prefetchHint(for: [name("app/a"), name("app/b"), name("app/x"), name("app/b")])
        #expect(hint.unknown == [name("app/x")])
        #expect(hint.evicted == [name("app/a")])
        #expect(hint.present == [name("app/b")])
        #expect(hint.missing == [name("app/x"), name("app/a")])
        _ = try cache.put("app/d", img[3])  // the hint made b recent, so c goes
        #expect(cache.engine.lookup(name("app/c")) == .evicted(name("app/c"), ContentHash.of(img[2])))
    }

    @Test("lowering the budget evicts down to it, oldest unpinned first")
    func lowerBudget() throws {
        var cache = Self.cache()
        let img = Self.images()
        _ = try cache.put("app/a", img[0])
        _ = try cache.put("app/b", img[1])
        try cache.setByteBudget(img[0].count)
        #expect(cache.store.storedHashes == [ContentHash.of(img[1])])
    }
}
