import GlimpseVocabulary
import EngineHosting
import Foundation
import GlimpseMessages
import IntentEngine
import IntentService
import ServiceKit
import Synchronization
import Testing

/// glimpse-intent's state through a snapshot: built by real inputs (apps, placements,
/// declarative taps and their replays, App Group writes, handler taps answered, waiting and
/// timed out, the lock), saved with a handler call out and taps queued behind it, restored
/// into a fresh host, and driven on beside the original: the same state and effects.
@Suite("glimpse-intent state survives a snapshot exactly")
struct IntentSnapshotTests {
    typealias Host = EngineHost<IntentState, IntentCommand>
    static let start = IntentHostTests.start

    final class Recorder: Sendable {
        let host: Host
        let effects = Effects()

        final class Effects: Sendable {
            let value = Mutex<[IntentEffect]>([])
            /// Handler calls this script has answered.
            let answered = Mutex<Set<UInt64>>([])
        }

        init(journal: Journal, snapshotting: Snapshotting<IntentState>? = nil) throws {
            let clock = HostClock(.manual(start: IntentSnapshotTests.start))
            let effects = self.effects
            host = try Host(
                engine: IntentState(executor: IntentExecutor(clock: clock)), clock: clock, journal: journal,
                snapshotting: snapshotting, apply: IntentState.apply,
                perform: { _, batch in effects.value.withLock { $0 += batch } })
        }

        var recorded: [IntentEffect] { effects.value.withLock { $0 } }

        func submit(_ input: GlimpseIntentV1.JournalRecord.Input, token: String = "") async {
            // Refusals are part of the script: both hosts must refuse alike.
            _ = try? await host.submit(IntentCommand(input, appToken: token))
        }

        /// Answers the handler calls out, oldest first, as the app would: the n-th succeeds
        /// with n, or fails every third time.
        func answerCalls() async {
            let calls = recorded.compactMap { effect -> CallID? in
                if case .callHandler(let call) = effect { call.id } else { nil }
            }
            let open = effects.answered.withLock { answered in calls.filter { answered.insert($0.rawValue).inserted } }
            for id in open {
                var response = GlimpseAppV1.PerformResponse()
                if id.rawValue % 3 == 0 {
                    response.outcome = .failed(GlimpseAppV1.PerformResponse.Failed(message: "no seats left"))
                } else {
                    response.outcome = .succeeded(
                        GlimpseAppV1.PerformResponse.Succeeded(
                            value: GlimpseWidgetV1.ParameterValue(kind: .intValue(Int64(id.rawValue)))))
                }
                await submit(.handlerAnswer(GlimpseIntentV1.HandlerAnswer(callId: id.rawValue, outcome: response)))
            }
        }

        func state() async throws -> [UInt8] {
            try await host.read { try SnapshotEncoder().encode($0) }
        }
    }

    static func manifest() -> GlimpseAppV1.AppManifest {
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = "net.insoc.rtlair"
        manifest.appGroups = [IntentHostTests.group]
        var seat = GlimpseAppV1.IntentDeclaration()
        seat.type = "PickSeatIntent"
        seat.widgetKinds = ["FlightWidget"]
        seat.action = .handlerEndpoint("127.0.0.1:9")
        manifest.intents = [
            IntentHostTests.intent("CheckInIntent", status: "checkedIn"),
            IntentHostTests.intent("ConfirmGateIntent", status: "gateConfirmed"), seat,
        ]
        return manifest
    }

    static func tap(_ key: String, _ placement: UInt64, _ intent: String) -> GlimpseIntentV1.JournalRecord.Input {
        .perform(IntentHostTests.tap(key, placement, intent: intent))
    }

    static func build(_ r: Recorder) async throws {
        await r.submit(.registerApp(GlimpseIntentV1.RegisterAppRequest(manifest: manifest())), token: "token-1")
        for id: UInt64 in 1...4 {
            var placed = GlimpseIntentV1.PlacementAddedRequest()
            placed.placementId = id
            placed.bundleId = "net.insoc.rtlair"
            placed.kind = "FlightWidget"
            placed.family = id == 4 ? .accessoryInline : .systemMedium
            await r.submit(.placementAdded(placed))
        }
        for round in 0..<30 {
            let at = start.addingTimeInterval(Double(round) * 7)
            try await r.host.advance(to: at)
            let placement = UInt64(round % 4 + 1)
            switch round % 5 {
            case 0: await r.submit(tap("check-\(round)", placement, "CheckInIntent"))
            case 1: await r.submit(tap("check-\(round - 1)", placement, "CheckInIntent"))  // a replay
            case 2: await r.submit(tap("seat-\(round)", 1, "PickSeatIntent"))
            case 3:
                await r.submit(
                    .set(
                        GlimpseIntentV1.SetRequest(
                            appGroup: IntentHostTests.group, key: "gate",
                            value: GlimpseWidgetV1.ParameterValue(kind: .stringValue("B\(round)")))))
            default: await r.answerCalls()
            }
            if round == 17 { await r.submit(.deviceLocked(GlimpseIntentV1.SetDeviceLockedRequest(locked: true))) }
            if round == 19 { await r.submit(.deviceLocked(GlimpseIntentV1.SetDeviceLockedRequest(locked: false))) }
            if round == 22 { await r.submit(.reloadsDelivered(GlimpseIntentV1.ReloadsDelivered(ids: [1, 2, 3]))) }
        }
        // At the snapshot: a handler call out, and taps waiting behind it.
        await r.submit(tap("seat-last", 1, "PickSeatIntent"))
        await r.submit(tap("seat-queued", 1, "PickSeatIntent"))
        await r.submit(tap("check-queued", 1, "CheckInIntent"))
    }

    static func goOn(_ r: Recorder) async throws {
        await r.submit(tap("seat-last", 1, "PickSeatIntent"))  // a replay while it runs
        await r.answerCalls()
        await r.submit(tap("seat-timeout", 2, "PickSeatIntent"))
        try await r.host.advance(to: start.addingTimeInterval(3_600))  // its handler times out
        await r.submit(tap("check-queued", 1, "CheckInIntent"))
        await r.submit(
            .compareAndSet(
                GlimpseIntentV1.CompareAndSetRequest(
                    appGroup: IntentHostTests.group, key: "gate",
                    value: GlimpseWidgetV1.ParameterValue(kind: .stringValue("C1")),
                    expectedVersion: 99)))
        await r.submit(.placementRemoved(GlimpseIntentV1.PlacementRemovedRequest(placementId: 3)))
        try await r.host.advance(to: start.addingTimeInterval(2 * 86_400))  // idempotency records expire
        await r.submit(tap("check-0", 1, "CheckInIntent"))  // no longer a replay
    }

    @Test("a snapshot restores the same state, which acts as the original from there")
    func roundTrip() async throws {
        let directory = try IntentHostTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try Recorder(
            journal: Journal(directory: directory, name: "original"), snapshotting: Snapshotting(policy: .off))
        try await Self.build(original)
        #expect(await original.host.read { !$0.callKeys.isEmpty && !$0.outbox.isEmpty })
        let saved = try await original.state()

        let journal = try Journal(directory: directory, name: "restored")
        try await original.host.copySnapshot(into: journal)
        let restored = try Recorder(journal: journal, snapshotting: Snapshotting(policy: .defaults))
        #expect(restored.host.opening.restored != nil)
        #expect(try await restored.state() == saved)
        #expect(await restored.host.nextDue() == original.host.nextDue())
        restored.effects.value.withLock { $0 = original.recorded }
        restored.effects.answered.withLock { $0 = original.effects.answered.withLock { $0 } }
        let mark = original.recorded.count

        try await Self.goOn(original)
        try await Self.goOn(restored)
        let effects = Array(original.recorded.dropFirst(mark))
        let after = Array(restored.recorded.dropFirst(mark))
        #expect(effects.count > 10)
        #expect(after == effects)
        #expect(try await restored.state() == original.state())
    }

    @Test("the snapshot covers every stored property but those a start gives")
    func everyFieldIsSaved() {
        let executor = IntentExecutor(clock: HostClock(.manual(start: Self.start)))
        let labels = Set(Mirror(reflecting: executor).children.compactMap(\.label))
        #expect(labels == Set(IntentExecutor.FieldKey.allCases.map(\.stringValue)).union(["clock", "settings"]))
        #expect(
            Set(Mirror(reflecting: executor.store).children.compactMap(\.label))
                == Set(AppGroupStore.FieldKey.allCases.map(\.stringValue)).union(["changeLogLimit"]))
        let state = IntentState(executor: executor)
        #expect(
            Set(Mirror(reflecting: state).children.compactMap(\.label))
                == Set(IntentState.FieldKey.allCases.map(\.stringValue)))
    }
}
