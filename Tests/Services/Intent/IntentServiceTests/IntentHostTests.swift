import ServiceKit
import Foundation
import Testing
import GlimpseVocabulary
import EngineHosting
import GlimpseMessages
import IntentEngine
import IntentService
import RPCCore

/// glimpse-intent's state in the one engine host, on a real SQLite journal and a manual
/// clock, with Ride the Lightning Air's declarative intents.
struct IntentHostTests {
    typealias Host = EngineHost<IntentState, IntentCommand>
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let group = "group.net.insoc.rtlair"

    static func open(_ directory: URL) throws -> Host {
        let clock = HostClock(.manual(start: start))
        return try Host(
            engine: IntentState(executor: IntentExecutor(clock: clock)), clock: clock,
            journal: try Journal(directory: directory, name: "intent"), apply: IntentState.apply, perform: { _, _ in })
    }

    static func intent(_ type: String, status: String) -> GlimpseAppV1.IntentDeclaration {
        var declaration = GlimpseAppV1.IntentDeclaration()
        declaration.type = type
        declaration.widgetKinds = ["FlightWidget"]
        var set = GlimpseAppV1.StoreOperation.SetValue()
        set.key = "flightStatus"
        set.source = .literal(GlimpseWidgetV1.ParameterValue(kind: .stringValue(status)))
        var store = GlimpseAppV1.StoreAction()
        store.appGroup = group
        store.operations = [GlimpseAppV1.StoreOperation(kind: .set(set))]
        var reloads = GlimpseAppV1.ReloadRequest()
        reloads.scope = .allTimelines(true)
        store.reloads = reloads
        declaration.action = .store(store)
        return declaration
    }

    static func register(
        _ host: Host, bundle: String = "net.insoc.rtlair", token: String, groups: [String] = [group]
    ) async throws {
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = bundle
        manifest.appGroups = groups
        manifest.intents =
            bundle == "net.insoc.rtlair"
            ? [intent("CheckInIntent", status: "checkedIn"), intent("ConfirmGateIntent", status: "gateConfirmed")] : []
        _ = try await host.submit(
            IntentCommand(.registerApp(GlimpseIntentV1.RegisterAppRequest(manifest: manifest)), appToken: token))
    }

    static func place(_ host: Host, _ id: UInt64, family: GlimpseWidgetV1.WidgetFamily = .systemMedium) async throws {
        var request = GlimpseIntentV1.PlacementAddedRequest()
        request.placementId = id
        request.bundleId = "net.insoc.rtlair"
        request.kind = "FlightWidget"
        request.family = family
        _ = try await host.submit(IntentCommand(.placementAdded(request)))
    }

    static func tap(
        _ key: String, _ placement: UInt64 = 1, intent: String = "CheckInIntent"
    ) -> GlimpseIntentV1.PerformRequest {
        var request = GlimpseIntentV1.PerformRequest()
        request.idempotencyKey = key
        request.bundleId = "net.insoc.rtlair"
        request.placementId = placement
        request.intentType = intent
        return request
    }

    static func completion(_ host: Host, _ request: GlimpseIntentV1.PerformRequest) async throws -> TapCompletion {
        guard case .tap(let completion?) = try await host.submit(IntentCommand(.perform(request))) else {
            Issue.record("the tap did not complete at once")
            throw RPCError(code: .internal, message: "no completion")
        }
        return completion
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intent-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func performOnceByKeyAndReplayAfterReopen() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let host = try Self.open(directory)
            try await Self.register(host, token: "token-1")
            try await Self.place(host, 1)
            let first = try await Self.completion(host, Self.tap("tap-1"))
            #expect(first.result == .performed(nil))
            #expect(!first.replayed)
            let response = try IntentHandlers.response(first)
            #expect(response.reloadedPlacements == [1])
            let again = try await Self.completion(host, Self.tap("tap-1"))
            #expect(again.replayed)
            #expect(again.result == .performed(nil))
            let (value, sequence) = await host.read {
                (
                    $0.executor.store.value("flightStatus", in: GroupID(Self.group)),
                    $0.executor.store.sequence(of: GroupID(Self.group))
                )
            }
            #expect(value == .string("checkedIn"))
            #expect(sequence == 1)  // written once
            try await host.close()
        }
        let host = try Self.open(directory)
        let (value, sequence, records, app) = await host.read {
            (
                $0.executor.store.value("flightStatus", in: GroupID(Self.group)),
                $0.executor.store.sequence(of: GroupID(Self.group)),
                $0.executor.idempotencyRecordCount, $0.app(forToken: "token-1")
            )
        }
        #expect(value == .string("checkedIn"))
        #expect(sequence == 1)
        #expect(records == 1)
        #expect(app == AppID("net.insoc.rtlair"))
        let replay = try await Self.completion(host, Self.tap("tap-1"))
        #expect(replay.replayed)
        #expect(await host.read { $0.executor.store.sequence(of: GroupID(Self.group)) } == 1)
        // A new key writes again.
        let gate = try await Self.completion(host, Self.tap("tap-2", intent: "ConfirmGateIntent"))
        #expect(gate.result == .performed(nil))
        #expect(
            await host.read { $0.executor.store.value("flightStatus", in: GroupID(Self.group)) }
                == .string("gateConfirmed"))
        try await host.close()
    }

    @Test func refusals() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try Self.open(directory)
        try await Self.register(host, token: "token-1")
        try await Self.place(host, 1)
        try await Self.place(host, 2, family: .accessoryInline)

        let inline = try await Self.completion(host, Self.tap("inline", 2))
        #expect(throws: RPCError.self) { try IntentHandlers.response(inline) }
        do { _ = try IntentHandlers.response(inline) } catch { #expect(error.code == .failedPrecondition) }

        let unknown = try await Self.completion(host, Self.tap("unknown", 1, intent: "BoardIntent"))
        let answer = try IntentHandlers.response(unknown)
        guard case .refused(let refused)? = answer.result else { Issue.record("not refused"); return }
        #expect(refused.reason == .unknownIntent)

        _ = try await host.submit(IntentCommand(.deviceLocked(GlimpseIntentV1.SetDeviceLockedRequest(locked: true))))
        let locked = try await Self.completion(host, Self.tap("locked", 1))
        do { _ = try IntentHandlers.response(locked); Issue.record("answered") } catch {
            #expect(error.code == .failedPrecondition)
        }
        #expect(await host.read { $0.executor.store.sequence(of: GroupID(Self.group)) } == 0)  // nothing ran
        try await host.close()
    }

    @Test func storeWritesAndVersions() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try Self.open(directory)
        var set = GlimpseIntentV1.SetRequest()
        set.appGroup = Self.group
        set.key = "seat"
        set.value = GlimpseWidgetV1.ParameterValue(kind: .stringValue("14C"))
        #expect(try await host.submit(IntentCommand(.set(set))) == .written(sequence: 1))
        var cas = GlimpseIntentV1.CompareAndSetRequest()
        cas.appGroup = Self.group
        cas.key = "seat"
        cas.value = GlimpseWidgetV1.ParameterValue(kind: .stringValue("2A"))
        cas.expectedVersion = 7
        await #expect(throws: RPCError.self) { try await host.submit(IntentCommand(.compareAndSet(cas))) }
        cas.expectedVersion = 1
        #expect(try await host.submit(IntentCommand(.compareAndSet(cas))) == .written(sequence: 2))
        try await host.close()
    }

    /// What `Get`/`Set`/`Watch` check before they answer PERMISSION_DENIED (the gRPC side is
    /// in Tests/Peers/test_intent_service.py): another app's token does not reach the group.
    @Test func isolation() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try Self.open(directory)
        try await Self.register(host, token: "token-1")
        try await Self.register(
            host, bundle: "com.example.pixartracker", token: "token-2", groups: ["group.com.example.pixar"])
        let (own, other) = await host.read { state in
            (
                state.app(AppID("net.insoc.rtlair"), sharesGroup: GroupID(Self.group)),
                state.app(state.app(forToken: "token-2")!, sharesGroup: GroupID(Self.group))
            )
        }
        #expect(own)
        #expect(!other)
        try await host.close()
    }
}
