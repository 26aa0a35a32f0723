import AssetEngine
import AssetService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseVocabulary
import Synchronization
import Testing

/// glimpse-asset's state through a snapshot: built by real inputs (two apps, puts that
/// deduplicate and evict under a small budget, reads that change recency, pins and unpins,
/// deletes, a lost blob), restored into a fresh host, and driven on beside the original: the
/// same catalog, recency and evictions, so the same blob work.
@Suite("glimpse-asset state survives a snapshot exactly")
struct AssetSnapshotTests {
    typealias Host = AssetStateTests.Host
    static let app = AssetStateTests.app

    final class Recorder: Sendable {
        let host: Host
        let effects = AssetStateTests.Effects()

        init(journal: Journal, snapshotting: Snapshotting<AssetState>? = nil) throws {
            let clock = HostClock(.manual(start: start))
            let effects = self.effects
            host = try Host(
                engine: AssetState(catalog: AssetCatalog(clock: clock)), clock: clock, journal: journal,
                snapshotting: snapshotting, apply: AssetState.apply,
                perform: { _, new in effects.all.withLock { $0 += new } })
        }

        func submit(_ input: GlimpseAssetV1.JournalRecord.Input, touched: [String] = [], token: String = "") async {
            let names = touched.compactMap { try? AssetName(app: AssetSnapshotTests.app, name: $0) }
            _ = try? await host.submit(AssetCommand(input, appToken: token, touched: names, upload: UploadID(1)))
        }

        func put(_ name: String, _ seed: UInt8, touched: [String] = []) async throws {
            await submit(.put(try AssetStateTests.upload(name, AssetStateTests.image(seed))), touched: touched)
        }

        func pin(_ holder: String, _ names: [String]) async {
            await submit(
                .pin(GlimpseAssetV1.PinRequest(bundleId: AssetSnapshotTests.app, holder: holder, names: names)))
        }

        func state() async throws -> [UInt8] {
            try await host.read { try SnapshotEncoder().encode($0) }
        }
    }

    static func build(_ r: Recorder) async throws {
        await r.submit(.byteBudget(4_500))
        for (n, bundle) in [app, "com.example.other"].enumerated() {
            var manifest = GlimpseAppV1.AppManifest()
            manifest.bundleId = bundle
            await r.submit(.registerApp(GlimpseAssetV1.RegisterAppRequest(manifest: manifest)), token: "token-\(n)")
        }
        for n in 0..<6 { try await r.put("poster-\(n)", UInt8(n)) }
        try await r.put("copy", 5)  // the same bytes as poster-5: one blob
        await r.pin("widget:1", ["poster-4", "copy"])
        try await r.put("late", 9, touched: ["poster-3", "poster-2"])
        await r.submit(.remove(GlimpseAssetV1.DeleteRequest(bundleId: app, name: "poster-2")))
        await r.submit(.blobLost(ContentHash.of(AssetStateTests.image(3)).hex))
        await r.pin("widget:2", ["late"])
        await r.submit(.unpin(GlimpseAssetV1.UnpinRequest(bundleId: app, holder: "widget:2")))
    }

    static func goOn(_ r: Recorder) async throws {
        for n in 10..<16 { try await r.put("more-\(n)", UInt8(n), touched: n == 12 ? ["late"] : []) }
        try await r.put("poster-3", 3)  // the lost one, again
        await r.pin("widget:1", [])
        await r.submit(.byteBudget(2_500))
        try await r.put("last", 30)
        await r.submit(.unregister(GlimpseAssetV1.UnregisterAppRequest(bundleId: "com.example.other")))
    }

    @Test("a snapshot restores the same state, which acts as the original from there")
    func roundTrip() async throws {
        let scratch = try AssetStateTests.directory()
        defer { scratch.remove() }
        let original = try Recorder(
            journal: Journal(directory: scratch.url, name: "original"), snapshotting: Snapshotting(policy: .off))
        try await Self.build(original)
        let saved = try await original.state()

        let journal = try Journal(directory: scratch.url, name: "restored")
        try await original.host.copySnapshot(into: journal)
        let restored = try Recorder(journal: journal, snapshotting: Snapshotting(policy: .defaults))
        #expect(restored.host.opening.restored != nil)
        #expect(try await restored.state() == saved)
        let mark = original.effects.list.count

        try await Self.goOn(original)
        try await Self.goOn(restored)
        let effects = Array(original.effects.list.dropFirst(mark))
        #expect(effects.contains { if case .delete = $0 { true } else { false } })
        #expect(restored.effects.list == effects)
        #expect(try await restored.state() == original.state())
    }

    @Test("the snapshot covers every stored property but those a start gives")
    func everyFieldIsSaved() {
        let catalog = AssetCatalog(clock: HostClock(.manual(start: start)))
        // `limits` is saved in part: the byte budget, which commands change.
        #expect(
            Set(Mirror(reflecting: catalog).children.compactMap(\.label))
                == Set(AssetCatalog.FieldKey.allCases.map(\.stringValue)).union(["clock", "limits"]).subtracting([
                    "byteBudget"
                ]))
        #expect(
            Set(Mirror(reflecting: AssetState(catalog: catalog)).children.compactMap(\.label))
                == Set(AssetState.FieldKey.allCases.map(\.stringValue)))
    }
}
