import GlimpseMessages
import ServiceKit
import Testing

@Suite("Health status store")
struct HealthStatusStoreTests {
    @Test("check: registered services answer their status, others are unknown (nil → NOT_FOUND)")
    func check() {
        let store = HealthStatusStore(["": .serving, "glimpse.timeline.v1.Timeline": .notServing])
        #expect(store.status(of: "") == .serving)
        #expect(store.status(of: "glimpse.timeline.v1.Timeline") == .notServing)
        #expect(store.status(of: "nope") == nil)
    }

    @Test("watch: the current status first, then each change; unknown services report SERVICE_UNKNOWN")
    func watch() async {
        let store = HealthStatusStore()
        var updates = store.watch("svc").makeAsyncIterator()
        #expect(await updates.next() == .serviceUnknown)
        store.set(.serving, for: "svc")
        #expect(await updates.next() == .serving)
        store.set(.serving, for: "svc")  // no change, no update
        store.set(.notServing, for: "svc")
        #expect(await updates.next() == .notServing)
        store.shutDown()
        #expect(await updates.next() == .notServing)
        #expect(await updates.next() == nil)
    }
}
