import ActivityEngine
import ActivityService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseVocabulary
import ServiceKit
import Synchronization
import Testing

/// glimpse-activity's state through a snapshot: built by real inputs (install, activities
/// by request and scheduled, push-to-start and widget tokens, pushes of every priority, an
/// alert, a fault, a broadcast channel, a deferred low-priority push, an end with a
/// dismissal date), restored into a fresh host, and driven on beside the original through
/// the 8-hour limit and dismissals: the same state, ids, tokens and effects.
@Suite("glimpse-activity state survives a snapshot exactly")
struct ActivitySnapshotTests {
    typealias Host = EngineHost<ActivityServiceState, ActivityCommand>

    final class Recorder: Sendable {
        let host: Host
        let recorded = Recorded()

        final class Recorded: Sendable {
            let effects = Mutex<[ActivityServiceEffect]>([])
        }

        init(journal: Journal, snapshotting: Snapshotting<ActivityServiceState>? = nil) throws {
            let clock = HostClock(.manual(start: start))
            // A fresh state gets a random seed of its own; the genesis input (or a snapshot) replaces it.
            let seed = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let manager = ActivityManager(clock: clock, identifiers: HashedIdentifiers(seed: seed))
            let recorded = self.recorded
            host = try Host(
                engine: ActivityServiceState(manager: manager, seed: seed), clock: clock, journal: journal,
                snapshotting: snapshotting, apply: ActivityServiceState.apply,
                perform: { _, batch in recorded.effects.withLock { $0 += batch } })
        }

        var effects: [ActivityServiceEffect] { recorded.effects.withLock { $0 } }

        @discardableResult
        func submit(_ input: GlimpseActivityV1.JournalRecord.Input, token: String = "") async -> ActivityAnswer? {
            try? await host.submit(ActivityCommand(input, appToken: token))
        }

        func push(_ path: String, _ body: String, priority: Int = 10, extra: [(String, String)] = [], id: String) async
        {
            var push = GlimpseActivityV1.ReceivedPush()
            push.method = "POST"
            push.path = path
            push.headers =
                ([("apns-push-type", "liveactivity"), ("apns-topic", topic), ("apns-priority", "\(priority)")] + extra)
                .map { GlimpseActivityV1.ReceivedPush.Header(name: $0.0, value: $0.1) }
            push.body = Array(body.utf8)
            push.bodySize = UInt32(push.body.count)
            push.apnsId = id
            await submit(.push(push))
        }

        func tokens() async -> [String] {
            await host.read { state in state.manager.allActivities.compactMap { $0.pushToken?.hex } }
        }

        func state() async throws -> [UInt8] {
            try await host.read { try SnapshotEncoder().encode($0) }
        }
    }

    static func seconds(_ at: Date) -> Int { Int(at.timeIntervalSince1970) }

    static func build(_ r: Recorder) async throws {
        await r.submit(.genesisSeed(Array(repeating: 7, count: 32)))
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = app
        manifest.activityAttributes = [GlimpseAppV1.ActivityAttributesDeclaration(typeName: "PizzaDeliveryAttributes")]
        manifest.supportsFrequentUpdates = true
        await r.submit(.install(GlimpseActivityV1.InstallAppRequest(manifest: manifest)), token: "app-token")
        await r.submit(
            .pushToStartToken(
                GlimpseActivityV1.PushToStartTokenRequest(bundleId: app, attributesType: "PizzaDeliveryAttributes")))
        await r.submit(.widgetPushToken(GlimpseActivityV1.WidgetPushTokenRequest(bundleId: app)))
        for n in 0..<3 {
            var request = GlimpseActivityV1.RequestActivityRequest()
            request.bundleId = app
            request.attributesType = "PizzaDeliveryAttributes"
            request.attributesJson = #"{"order":"\#(n)"}"#
            request.content = GlimpseActivityV1.Content(
                stateJson: #"{"eta":\#(10 + n)}"#,
                staleDate: n == 1 ? GoogleProtobuf.Timestamp(seconds: Int64(seconds(start) + 1_800)) : nil,
                relevanceScore: Double(n))
            request.pushType = .token(true)
            if n == 2 { request.startDate = GoogleProtobuf.Timestamp(seconds: Int64(seconds(start) + 600)) }
            await r.submit(.request(request))
        }
        var channel = GlimpseActivityV1.ChannelRequest()
        channel.bundleId = app
        channel.action = .create(GlimpseActivityV1.ChannelRequest.CreateChannel(channelId: "", messageStoragePolicy: 1))
        await r.submit(.channel(channel))
        try await r.host.advance(to: start.addingTimeInterval(5))
        let tokens = await r.tokens()
        #expect(tokens.count == 3)
        for (n, token) in tokens.enumerated() {
            let at = start.addingTimeInterval(Double(10 + n))
            await r.push(
                "/3/device/\(token)",
                #"{"aps":{"timestamp":\#(seconds(at)),"event":"update","content-state":{"eta":\#(n)},"alert":{"title":"Soon","body":"\#(n)"}}}"#,
                id: "a-\(n)")
            await r.push(
                "/3/device/\(token)",
                #"{"aps":{"timestamp":\#(seconds(at) + 1),"event":"update","content-state":{"eta":\#(n + 5)}}}"#,
                priority: 5, id: "b-\(n)")
        }
        var fault = GlimpseActivityV1.InjectFaultRequest()
        fault.target = .deviceToken(tokens[0])
        fault.count = 2
        fault.status = 429
        fault.reason = "TooManyRequests"
        await r.submit(.injectFault(fault))
        await r.push(
            "/3/device/\(tokens[0])",
            #"{"aps":{"timestamp":\#(seconds(start) + 20),"event":"update","content-state":{"eta":1}}}"#, id: "c")
        await r.push(
            "/3/device/\(tokens[1])",
            #"{"aps":{"timestamp":\#(seconds(start) + 30),"event":"end","dismissal-date":\#(seconds(start) + 7_200),"content-state":{"eta":0}}}"#,
            id: "d")
        try await r.host.advance(to: start.addingTimeInterval(60))
    }

    static func goOn(_ r: Recorder) async throws {
        let tokens = await r.tokens()
        for (n, token) in tokens.enumerated() {
            await r.push(
                "/3/device/\(token)",
                #"{"aps":{"timestamp":\#(seconds(start) + 100 + n),"event":"update","content-state":{"eta":\#(n)}}}"#,
                id: "e-\(n)")
        }
        await r.push(
            "/3/device/\(tokens[0])",
            #"{"aps":{"timestamp":\#(seconds(start) + 90),"event":"update","content-state":{"eta":9}}}"#, id: "old")
        await r.submit(
            .appSwitches(GlimpseActivityV1.SetAppSwitchesRequest(bundleId: app, frequentUpdatesEnabled: false)))
        await r.submit(
            .rotatePushToStartToken(
                GlimpseActivityV1.PushToStartTokenRequest(bundleId: app, attributesType: "PizzaDeliveryAttributes")))
        for hour in 1...10 {
            try await r.host.advance(to: start.addingTimeInterval(Double(hour) * 3_600))
            for token in await r.tokens() {
                await r.push(
                    "/3/device/\(token)",
                    #"{"aps":{"timestamp":\#(seconds(start) + hour * 3_600),"event":"update","content-state":{"eta":\#(hour)}}}"#,
                    id: "h-\(hour)")
            }
        }
    }

    @Test("a snapshot restores the same state, which acts as the original from there")
    func roundTrip() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "activity-snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try Recorder(
            journal: Journal(directory: directory, name: "original"), snapshotting: Snapshotting(policy: .off))
        try await Self.build(original)
        let saved = try await original.state()

        let journal = try Journal(directory: directory, name: "restored")
        try await original.host.copySnapshot(into: journal)
        let restored = try Recorder(journal: journal, snapshotting: Snapshotting(policy: .defaults))
        #expect(restored.host.opening.restored != nil)
        #expect(try await restored.state() == saved)
        #expect(await restored.host.nextDue() == original.host.nextDue())
        let mark = original.effects.count

        try await Self.goOn(original)
        try await Self.goOn(restored)
        let effects = Array(original.effects.dropFirst(mark))
        let after = restored.effects
        #expect(effects.count > 20)
        #expect(after.count == effects.count)
        if let first = zip(effects, after).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record(
                "effect \(first.offset) differs: \(first.element.0) then, \(first.element.1) after the restore")
        }
        #expect(try await restored.state() == original.state())
    }

    @Test("the snapshot covers every stored property but those a start gives")
    func everyFieldIsSaved() {
        let manager = ActivityManager(clock: HostClock(.manual(start: start)))
        #expect(
            Set(Mirror(reflecting: manager).children.compactMap(\.label))
                == Set(ActivityManager.FieldKey.allCases.map(\.stringValue)).union(["clock", "config", "pending"])
                .subtracting(["identifierSource"]))
        #expect(
            Set(Mirror(reflecting: ActivityServiceState(manager: manager, seed: [1])).children.compactMap(\.label))
                == Set(ActivityServiceState.FieldKey.allCases.map(\.stringValue)).union(["pushLogLimit"]))
    }
}
