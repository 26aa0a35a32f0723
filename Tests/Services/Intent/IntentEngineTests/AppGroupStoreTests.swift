import Foundation
import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

@Suite("App Group store")
struct AppGroupStoreTests {
    let group: GroupID = "group.example"

    @Test(
        "\"typed values (string, int, double, bool, date, bytes…)\" round-trip",
        arguments: [
            TypedValue.string("Gate M72"), .int(-3), .double(0.42), .bool(true),
            .date(Date(timeIntervalSince1970: 1_767_225_600)), .bytes([0, 255, 7]),
        ])
    func typedValues(value: TypedValue) {
        var store = AppGroupStore()
        store.set("k", to: value, in: group)
        #expect(store.value("k", in: group) == value)
        #expect(store.value("k", in: "group.other") == nil)
    }

    @Test("\"versioned\": every write advances the group's sequence; a key's version is its last write's")
    func versions() {
        var store = AppGroupStore()
        #expect(store.set("a", to: .int(1), in: group) == 1)
        #expect(store.set("b", to: .int(1), in: group) == 2)
        #expect(store.set("a", to: .int(2), in: group) == 3)
        #expect(store.entry("a", in: group)?.version == 3)
        #expect(store.entry("b", in: group)?.version == 2)
        #expect(store.remove("b", in: group) == 4)
        #expect(store.remove("b", in: group) == nil)
        #expect(store.sequence(of: group) == 4)
    }

    @Test("\"compare-and-set\": writes only at the expected version (nil: absent)")
    func compareAndSet() throws {
        var store = AppGroupStore()
        let v1 = try store.compareAndSet("status", in: group, expected: nil, to: .string("notCheckedIn"))
        #expect(throws: StoreError.versionMismatch(key: "status", expected: nil, actual: v1)) {
            try store.compareAndSet("status", in: group, expected: nil, to: .string("other"))
        }
        let v2 = try store.compareAndSet("status", in: group, expected: v1, to: .string("checkedIn"))
        #expect(throws: StoreError.versionMismatch(key: "status", expected: v1, actual: v2)) {
            try store.compareAndSet("status", in: group, expected: v1, to: .string("late"))
        }
        #expect(store.value("status", in: group) == .string("checkedIn"))
        try store.compareAndSet("status", in: group, expected: v2, to: nil)
        #expect(store.value("status", in: group) == nil)
    }

    @Test("\"a change feed providers can watch\": changes(since:) gives what came after")
    func changeFeed() {
        var store = AppGroupStore()
        #expect(store.changes(in: group, since: 0) == .changes([], latest: 0))
        store.set("a", to: .int(1), in: group)
        store.set("b", to: .bool(true), in: group)
        store.remove("a", in: group)
        #expect(
            store.changes(in: group, since: 1)
                == .changes(
                    [
                        StoreChange(sequence: 2, key: "b", value: .bool(true)),
                        StoreChange(sequence: 3, key: "a", value: nil),
                    ], latest: 3))
        #expect(store.changes(in: group, since: 3) == .changes([], latest: 3))
    }

    @Test("a reader further behind than the change log must resync from a snapshot")
    func resync() {
        var store = AppGroupStore(changeLogLimit: 2)
        for n in 1...5 { store.set("n", to: .int(Int64(n)), in: group) }
        #expect(store.changes(in: group, since: 2) == .resync(latest: 5))
        #expect(
            store.changes(in: group, since: 3)
                == .changes(
                    [
                        StoreChange(sequence: 4, key: "n", value: .int(4)),
                        StoreChange(sequence: 5, key: "n", value: .int(5)),
                    ], latest: 5))
        #expect(store.changes(in: group, since: 9) == .resync(latest: 5))
        #expect(store.snapshot(of: group) == ["n": AppGroupStore.Entry(value: .int(5), version: 5)])
    }

    @Test("a declarative sequence is atomic: one failing step writes nothing")
    func atomicApply() throws {
        var store = AppGroupStore()
        store.set("label", to: .string("x"), in: group)
        #expect(throws: StoreError.typeMismatch(key: "label", expected: .bool, found: .string)) {
            try store.apply([.increment(key: "count", by: 2), .toggle(key: "label")], in: group, parameters: [:])
        }
        #expect(store.value("count", in: group) == nil)
        #expect(store.sequence(of: group) == 1)
        let changes = try store.apply(
            [
                .increment(key: "count", by: 2), .increment(key: "count", by: 3), .toggle(key: "on"),
                .set(key: "who", to: .parameter("p")),
            ],
            in: group, parameters: ["p": .string("Remy")])
        #expect(changes.map(\.sequence) == [2, 3, 4, 5])
        #expect(store.value("count", in: group) == .int(5))
        #expect(store.value("on", in: group) == .bool(true))
        #expect(store.value("who", in: group) == .string("Remy"))
    }

    @Test("increment adds to a double too; toggle flips back")
    func incrementAndToggle() throws {
        var store = AppGroupStore()
        store.set("x", to: .double(0.5), in: group)
        _ = try store.apply(
            [.increment(key: "x", by: 2), .toggle(key: "t"), .toggle(key: "t")], in: group, parameters: [:])
        #expect(store.value("x", in: group) == .double(2.5))
        #expect(store.value("t", in: group) == .bool(false))
    }

    @Test("an increment past Int64.max is an error the caller sees, and writes nothing (it used to wrap to Int64.min)")
    func incrementOverflow() throws {
        var store = AppGroupStore()
        store.set("count", to: .int(.max - 1), in: group)
        _ = try store.apply([.increment(key: "count", by: 1)], in: group, parameters: [:])
        #expect(store.value("count", in: group) == .int(.max))
        #expect(throws: StoreError.overflow(key: "count", value: .max, increment: 1)) {
            try store.apply([.increment(key: "count", by: 1)], in: group, parameters: [:])
        }
        // Below Int64.min too, and atomically: the first step's -1 is not written either.
        #expect(throws: StoreError.overflow(key: "count", value: -1, increment: .min)) {
            try store.apply(
                [.increment(key: "count", by: .min), .increment(key: "count", by: .min)], in: group, parameters: [:])
        }
        #expect(store.value("count", in: group) == .int(.max))
        #expect(store.sequence(of: group) == 2)
    }
}
