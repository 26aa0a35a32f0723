import AssetEngine
import AssetMapping
import AssetService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseVocabulary
import RPCCore
import Synchronization
import Testing

/// glimpse-asset's state in the one engine host, on a real SQLite journal and a manual
/// clock: what is journaled, what replays, and the blob work each command asks for.
@Suite("Asset state in the engine host")
struct AssetStateTests {
    typealias Host = EngineHost<AssetState, AssetCommand>
    static let app = "com.example.pixar"

    /// Blob work the host asked for, in order.
    final class Effects: Sendable {
        let all = Mutex<[AssetEffect]>([])
        var list: [AssetEffect] { all.withLock { $0 } }
    }

    static func open(_ directory: URL, effects: Effects = Effects()) throws -> Host {
        let clock = HostClock(.manual(start: start))
        return try Host(
            engine: AssetState(catalog: AssetCatalog(clock: clock)), clock: clock,
            journal: try Journal(directory: directory, name: "asset"), apply: AssetState.apply,
            perform: { _, new in effects.all.withLock { $0 += new } })
    }

    static func register(_ host: Host, _ bundle: String = app, token: String = "token-1") async throws {
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = bundle
        _ = try await host.submit(
            AssetCommand(.registerApp(GlimpseAssetV1.RegisterAppRequest(manifest: manifest)), appToken: token))
    }

    /// A 1,000-byte image per seed.
    static func image(_ seed: UInt8) -> [UInt8] { Images.png(width: 10, height: 10, dataBytes: 1000 - 57, seed: seed) }

    static func upload(_ name: String, _ bytes: [UInt8], bundle: String = app) throws -> GlimpseAssetV1.StoredUpload {
        AssetWire.record(
            UploadSession.Verified(
                name: try AssetName(app: bundle, name: name), use: .widget, hash: ContentHash.of(bytes),
                size: bytes.count,
                image: ImageInfo(format: .png, width: 10, height: 10)))
    }

    static func put(_ host: Host, _ name: String, _ bytes: [UInt8], touched: [String] = []) async throws -> AssetAnswer
    {
        try await host.submit(
            AssetCommand(
                .put(try upload(name, bytes)), touched: try touched.map { try AssetName(app: app, name: $0) },
                upload: UploadID(1)))
    }

    static func states(_ host: Host, _ names: [String]) async throws -> [String: String] {
        let full = try names.map { try AssetName(app: app, name: $0) }
        return await host.read { state in
            Dictionary(
                uniqueKeysWithValues: full.map { name in
                    let state: String =
                        switch state.catalog.lookup(name) {
                        case .present: "present"
                        case .evicted: "evicted"
                        case .unknown: "unknown"
                        }
                    return (name.path, state)
                })
        }
    }

    static func directory() throws -> Scratch { try Scratch("asset-state") }

    @Test("reads journaled with the next command make eviction replay exactly")
    func readsDecideEvictionAndReplay() async throws {
        let scratch = try Self.directory()
        defer { scratch.remove() }
        let effects = Effects()
        do {
            let host = try Self.open(scratch.url, effects: effects)
            _ = try await host.submit(AssetCommand(.byteBudget(2_500)))
            try await Self.register(host)
            _ = try await Self.put(host, "a", Self.image(1))
            _ = try await Self.put(host, "b", Self.image(2))
            // "a" was read (a Get) since: "b" is now the least recently used, and goes.
            guard case .stored(let outcome) = try await Self.put(host, "c", Self.image(3), touched: ["a"]) else {
                Issue.record("c not stored")
                return
            }
            #expect(!outcome.deduplicated)
            #expect(try await Self.states(host, ["a", "b", "c"]) == ["a": "present", "b": "evicted", "c": "present"])
            #expect(effects.list.contains(.delete(ContentHash.of(Self.image(2)))))
            #expect(effects.list.filter { if case .commit = $0 { true } else { false } }.count == 3)
            try await host.close()
        }
        let host = try Self.open(scratch.url)
        #expect(try await Self.states(host, ["a", "b", "c"]) == ["a": "present", "b": "evicted", "c": "present"])
        #expect(await host.read { $0.catalog.usedBytes } == 2_000)
        #expect(
            await host.read { Set($0.presentBlobs.keys) } == [
                ContentHash.of(Self.image(1)), ContentHash.of(Self.image(3)),
            ])
        try await host.close()

        // Without the read, the other blob goes: the reads are what decided it.
        let other = try Self.directory()
        defer { other.remove() }
        let control = try Self.open(other.url)
        _ = try await control.submit(AssetCommand(.byteBudget(2_500)))
        try await Self.register(control)
        _ = try await Self.put(control, "a", Self.image(1))
        _ = try await Self.put(control, "b", Self.image(2))
        _ = try await Self.put(control, "c", Self.image(3))
        #expect(try await Self.states(control, ["a", "b", "c"]) == ["a": "evicted", "b": "present", "c": "present"])
        try await control.close()
    }

    @Test("a put that cannot fit beside pinned blobs is refused, journaled with its reads, and replays")
    func pinnedBlobsAreNeverEvicted() async throws {
        let scratch = try Self.directory()
        defer { scratch.remove() }
        do {
            let host = try Self.open(scratch.url)
            _ = try await host.submit(AssetCommand(.byteBudget(2_500)))
            try await Self.register(host)
            _ = try await Self.put(host, "a", Self.image(1))
            _ = try await Self.put(host, "b", Self.image(2))
            var pin = GlimpseAssetV1.PinRequest()
            pin.bundleId = Self.app
            pin.holder = "widget:1"
            pin.names = ["a", "b"]
            #expect(try await host.submit(AssetCommand(.pin(pin))) == .pinned(evicted: []))
            let rows = try host.journal.count()
            let answer = try await Self.put(host, "c", Self.image(3), touched: ["b"])
            guard case .refused(.budgetExhausted) = answer else {
                Issue.record("expected a refusal, got \(answer)")
                return
            }
            #expect(try host.journal.count() == rows + 1)
            #expect(try await Self.states(host, ["a", "b", "c"]) == ["a": "present", "b": "present", "c": "unknown"])
            // Released, the oldest unread one goes first: "a" (b was read).
            var unpin = GlimpseAssetV1.UnpinRequest()
            unpin.bundleId = Self.app
            unpin.holder = "widget:1"
            #expect(try await host.submit(AssetCommand(.unpin(unpin))) == .released(count: 2))
            _ = try await Self.put(host, "c", Self.image(3))
            #expect(try await Self.states(host, ["a", "b", "c"]) == ["a": "evicted", "b": "present", "c": "present"])
            try await host.close()
        }
        let host = try Self.open(scratch.url)
        #expect(try await Self.states(host, ["a", "b", "c"]) == ["a": "evicted", "b": "present", "c": "present"])
        try await host.close()
    }

    @Test(
        "refusals before any change leave no journal row",
        arguments: [
            "unregistered app", "unknown name", "pin of an unknown name", "pin without a holder",
            "unpin without a holder",
            "bad bundle id", "second registration",
        ])
    func refusalsJournalNothing(_ refusal: String) async throws {
        let scratch = try Self.directory()
        defer { scratch.remove() }
        let host = try Self.open(scratch.url)
        try await Self.register(host)
        _ = try await Self.put(host, "a", Self.image(1))
        let rows = try host.journal.count()
        let command: AssetCommand
        let expected: StatusCode
        switch refusal {
        case "unregistered app":
            command = AssetCommand(.put(try Self.upload("x", Self.image(5), bundle: "com.example.other")))
            expected = .notFound
        case "unknown name":
            command = AssetCommand(.remove(GlimpseAssetV1.DeleteRequest(bundleId: Self.app, name: "nope")))
            expected = .notFound
        case "pin of an unknown name":
            command = AssetCommand(
                .pin(GlimpseAssetV1.PinRequest(bundleId: Self.app, holder: "h", names: ["a", "nope"])))
            expected = .notFound
        case "pin without a holder":
            command = AssetCommand(.pin(GlimpseAssetV1.PinRequest(bundleId: Self.app, holder: "", names: ["a"])))
            expected = .invalidArgument
        case "unpin without a holder":
            command = AssetCommand(.unpin(GlimpseAssetV1.UnpinRequest(bundleId: Self.app, holder: "")))
            expected = .invalidArgument
        case "bad bundle id":
            command = AssetCommand(.remove(GlimpseAssetV1.DeleteRequest(bundleId: "com.example/../x", name: "a")))
            expected = .invalidArgument
        default:
            var manifest = GlimpseAppV1.AppManifest()
            manifest.bundleId = Self.app
            command = AssetCommand(
                .registerApp(GlimpseAssetV1.RegisterAppRequest(manifest: manifest)), appToken: "token-2")
            expected = .alreadyExists
        }
        do {
            _ = try await host.submit(command)
            Issue.record("\(refusal) was accepted")
        } catch let error as RPCError {
            #expect(error.code == expected, "\(error)")
        }
        #expect(try host.journal.count() == rows)
        #expect(try await Self.states(host, ["a"]) == ["a": "present"])
        try await host.close()
    }

    @Test("names are shared content: deleting one name keeps the blob another holds")
    func deduplicationAcrossApps() async throws {
        let scratch = try Self.directory()
        defer { scratch.remove() }
        let effects = Effects()
        let host = try Self.open(scratch.url, effects: effects)
        try await Self.register(host)
        try await Self.register(host, "com.example.other", token: "token-2")
        let bytes = Self.image(7)
        _ = try await Self.put(host, "poster", bytes)
        let other = try await host.submit(
            AssetCommand(.put(try Self.upload("copy", bytes, bundle: "com.example.other")), upload: UploadID(2)))
        guard case .stored(let outcome) = other else { Issue.record("not stored"); return }
        #expect(outcome.deduplicated)
        #expect(await host.read { $0.catalog.usedBytes } == bytes.count)
        #expect(
            try await host.submit(
                AssetCommand(.remove(GlimpseAssetV1.DeleteRequest(bundleId: Self.app, name: "poster"))))
                == .deleted(blobDeleted: false))
        #expect(
            try await host.submit(
                AssetCommand(.remove(GlimpseAssetV1.DeleteRequest(bundleId: "com.example.other", name: "copy"))))
                == .deleted(blobDeleted: true))
        #expect(effects.list == [.commit(ContentHash.of(bytes), upload: UploadID(1)), .delete(ContentHash.of(bytes))])
        try await host.close()
    }

    @Test("unregistering an app removes its names and pins, and the blobs only it held")
    func unregister() async throws {
        let scratch = try Self.directory()
        defer { scratch.remove() }
        let effects = Effects()
        do {
            let host = try Self.open(scratch.url, effects: effects)
            try await Self.register(host)
            _ = try await Self.put(host, "a", Self.image(1))
            _ = try await Self.put(host, "b", Self.image(2))
            _ = try await host.submit(
                AssetCommand(.pin(GlimpseAssetV1.PinRequest(bundleId: Self.app, holder: "activity:1", names: ["a"]))))
            #expect(
                try await host.submit(
                    AssetCommand(.unregister(GlimpseAssetV1.UnregisterAppRequest(bundleId: Self.app))))
                    == .unregistered(removedNames: 2))
            #expect(
                Set(effects.list.filter { if case .delete = $0 { true } else { false } })
                    == [.delete(ContentHash.of(Self.image(1))), .delete(ContentHash.of(Self.image(2)))])
            try await host.close()
        }
        let host = try Self.open(scratch.url)
        let (registered, used, token) = await host.read {
            ($0.isRegistered(AppID(Self.app)), $0.catalog.usedBytes, $0.app(forToken: "token-1"))
        }
        #expect(!registered && used == 0 && token == nil)
        // Registered again: a fresh namespace, nothing pinned.
        try await Self.register(host, token: "token-3")
        _ = try await Self.put(host, "a", Self.image(1))
        #expect(await host.read { $0.catalog.isPinned(try! AssetName(app: Self.app, name: "a")) } == false)
        try await host.close()
    }

    @Test("a lower budget is journaled, evicts down to it, and replays")
    func budgetChange() async throws {
        let scratch = try Self.directory()
        defer { scratch.remove() }
        let effects = Effects()
        do {
            let host = try Self.open(scratch.url, effects: effects)
            try await Self.register(host)
            for (i, name) in ["a", "b", "c"].enumerated() { _ = try await Self.put(host, name, Self.image(UInt8(i))) }
            _ = try await host.submit(AssetCommand(.byteBudget(1_500)))
            #expect(try await Self.states(host, ["a", "b", "c"]) == ["a": "evicted", "b": "evicted", "c": "present"])
            #expect(
                effects.list.suffix(2) == [
                    .delete(ContentHash.of(Self.image(0))), .delete(ContentHash.of(Self.image(1))),
                ])
            try await host.close()
        }
        let host = try Self.open(scratch.url)
        #expect(await host.read { $0.catalog.limits.byteBudget } == 1_500)
        #expect(try await Self.states(host, ["a", "b", "c"]) == ["a": "evicted", "b": "evicted", "c": "present"])
        try await host.close()
    }

    @Test("a lost blob makes its names evicted, and its file is deleted")
    func lostBlob() async throws {
        let scratch = try Self.directory()
        defer { scratch.remove() }
        let effects = Effects()
        let host = try Self.open(scratch.url, effects: effects)
        try await Self.register(host)
        _ = try await Self.put(host, "a", Self.image(1))
        _ = try await host.submit(AssetCommand(.blobLost(ContentHash.of(Self.image(1)).hex)))
        #expect(try await Self.states(host, ["a"]) == ["a": "evicted"])
        #expect(effects.list.last == .delete(ContentHash.of(Self.image(1))))
        try await host.close()
    }
}
