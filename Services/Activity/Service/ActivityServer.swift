#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import ActivityEngine
package import EngineHosting
package import GlimpseVocabulary
package import GlimpseMessages
import GlimpseRPC
import ProtoMapping
package import ServiceKit
import RPCCore
import ActivityMapping

/// glimpse-activity assembled: the journal under the data directory, the engine host, the
/// activity feed, the APNs-compatible endpoint's logic, and the handlers that serve them.
package struct ActivityServer: Sendable {
    package let host: ActivityHandlers.Host
    package let feed: ActivityFeed
    package let connections: Connections
    package let handlers: ActivityHandlers
    package let clock: ClockService<ActivityServiceState, ActivityCommand>
    package let endpoint: APNsEndpoint

    /// Opens (restores and replays) the journal `<directory>/activity.sqlite`, or an in-memory
    /// one, saving snapshots as `snapshots` says (failures go to `report`); a new journal
    /// starts with `seed` for ids and tokens (32 bytes; nil: random), an existing one keeps
    /// the seed it started with, and the `settings` (kept beside it: `SettingsRecord`).
    /// `sharing`: another server's pool, whose connections this one
    /// calls on (a device's). `tokenIssued` hears of every push token the device issues, as it
    /// issues it (`APNsDevices`' index).
    package static func open(
        directory: URL?, journal given: Journal? = nil, clock: HostClock, settings: ActivitySettings = .defaults,
        authentication: APNsEndpoint.Authentication, outbound: Outbound,
        tokenClock: (any WallClock)? = SystemClock(), snapshots: SnapshotPolicy = .defaults,
        transports: Connections.Transports = .sockets, sharing shared: Connections? = nil,
        seed givenSeed: [UInt8]? = nil, tokenIssued: (@Sendable (PushToken) -> Void)? = nil,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> ActivityServer {
        // The settings a SQLite journal was written with are kept beside it (`SettingsRecord`).
        let record = given == nil ? directory : nil
        if let record { try SettingsRecord.check(settings, in: record, journal: "activity.sqlite") }
        let journal = try given ?? directory.map { try Journal(directory: $0, name: "activity") } ?? Journal.inMemory()
        let feed = ActivityFeed()
        let connections = shared.map(Connections.init(sharing:)) ?? Connections(transports: transports)
        var seed = givenSeed ?? [UInt8](repeating: 0, count: 32)
        if givenSeed == nil {
            var generator = SystemRandomNumberGenerator()
            for index in seed.indices { seed[index] = generator.next() }
        }
        // The manager hands out ids from the seed the journal keeps (the genesis input sets
        // it); made with that kind of source from the start, a snapshot restores into it.
        let manager = ActivityManager(clock: clock, config: settings, identifiers: HashedIdentifiers(seed: seed))
        // The state is values all through: its snapshots are encoded from a copy beside the
        // host, not between two pushes; the push log goes to the archive with each one.
        let state = ActivityServiceState(manager: manager, seed: seed)
        var snapshotting = Snapshotting<ActivityServiceState>(policy: snapshots, report: report)
        snapshotting.encodesAside = true
        snapshotting.archive = state.pushArchive
        let host = try ActivityHandlers.Host(
            engine: state,
            clock: clock, journal: journal, snapshotting: snapshotting,
            apply: ActivityServiceState.apply,
            perform: { host, effects in
                await Self.perform(
                    effects, host: host, feed: feed, connections: connections, outbound: outbound,
                    tokenIssued: tokenIssued)
            })
        if await host.lastSequence == 0 {
            if let record { try SettingsRecord.write(settings, in: record) }
            _ = try await host.submit(ActivityCommand(.genesisSeed(seed)))
        }
        return ActivityServer(
            host: host, feed: feed, connections: connections, handlers: ActivityHandlers(host: host, feed: feed),
            clock: ClockService(host: host, watermark: { feed.sequence }),
            endpoint: APNsEndpoint(host: host, authentication: authentication, tokenClock: tokenClock))
    }

    /// Engine events go to the watchers as one batch; widget pushes ask glimpse-timeline
    /// for `reloadAllTimelines()` (reason APP_REQUEST: budgeted there, as on a phone).
    static func perform(
        _ effects: [ActivityServiceEffect], host: ActivityHandlers.Host, feed: ActivityFeed,
        connections: Connections, outbound: Outbound, tokenIssued: (@Sendable (PushToken) -> Void)? = nil
    ) async {
        // Tokens first: a push to one can come as soon as a watcher hears of it.
        if let tokenIssued {
            for effect in effects {
                switch effect {
                case .event(.pushTokenIssued(_, let token)), .event(.pushToStartTokenIssued(_, _, let token)),
                    .widgetTokenIssued(let token):
                    tokenIssued(token)
                default: break
                }
            }
        }
        var reloads: [AppID] = []
        let now = host.clock.now
        let changes = await host.read { state in
            effects.compactMap { effect -> GlimpseActivityV1.ActivityChange? in
                switch effect {
                case .event(let event):
                    var change = GlimpseActivityV1.ActivityChange(event, manager: state.manager, at: now)
                    change?.pushSequence = state.pushSequence
                    return change
                case .reloadWidgets(let app):
                    reloads.append(app)
                    return nil
                case .widgetTokenIssued: return nil
                }
            }
        }
        feed.publish(contentsOf: changes)
        guard !reloads.isEmpty else { return }
        guard let timeline = outbound.client(connections).map(GlimpseTimelineV1.TimelineService.Client.init(wrapping:))
        else {
            for app in reloads { outbound.log("no --timeline-address: widget push for \(app) dropped") }
            return
        }
        for app in reloads {
            var request = GlimpseTimelineV1.ReloadAllTimelinesRequest()
            request.bundleId = app.rawValue
            request.reason = .appRequest
            do {
                _ = try await timeline.reloadAllTimelines(
                    ClientRequest(message: request), options: CallOptions(timeout: .seconds(5)))
            } catch {
                outbound.log("widget push reload at glimpse-timeline failed for \(app): \(error)")
            }
        }
    }

    /// Logged pushes after `sequence`, oldest first, at most `limit`, of `app` (or all): the
    /// archived ones, then those the engine holds since the last snapshot.
    package func pushes(after sequence: UInt64, limit: Int, app: AppID?) async throws -> [GlimpseActivityV1.PushRecord]
    {
        try await Self.pushes(after: sequence, limit: limit, app: app, host: host)
    }

    static func pushes(
        after sequence: UInt64, limit: Int, app: AppID?, host: ActivityHandlers.Host
    ) async throws -> [GlimpseActivityV1.PushRecord] {
        // The engine first: a snapshot that archives its records meanwhile puts them in the
        // archive before they leave the engine, so the two reads together miss none.
        let recent = await host.read { $0.pushes(after: sequence, limit: limit, app: app) }
        var found = try host.journal.archived(after: Int64(sequence), key: app?.rawValue, limit: limit).map {
            try GlimpseActivityV1.PushRecord(serializedBytes: $0.bytes)
        }
        let last = found.last?.sequence ?? sequence
        found += recent.lazy.filter { $0.sequence > last }.prefix(limit - found.count)
        return found
    }

    package func close() async throws {
        feed.finish()
        await connections.shutdown()
        try await host.close()
    }
}
