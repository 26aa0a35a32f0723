#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import EngineHosting
import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
package import ServiceKit
package import TimelineEngine
import TimelineMapping
import Synchronization

/// glimpse-timeline assembled: the journal under the data directory, the engine host, the
/// entry feed, the provider connections, and the handlers that serve them.
package struct TimelineServer: Sendable {
    package let host: TimelineHandlers.Host
    package let feed: EntryFeed
    package let clients: Connections
    package let handlers: TimelineHandlers
    package let clock: ClockService<TimelineState, TimelineCommand>
    /// The image hints for glimpse-asset; nil without `outbound.address`.
    let hints: AssetHints?

    /// Opens (restores and replays) the journal `<directory>/timeline.sqlite`, or an in-memory
    /// one, saving snapshots as `snapshots` says (failures go to `report`). With
    /// `outbound.address` (glimpse-asset's), the images widgets show are pinned and prefetched there.
    /// `sharing`: another server's pool, whose connections this one calls on (a device's).
    package static func open(
        directory: URL?, journal given: Journal? = nil, clock: HostClock, settings: TimelineSettings = .defaults,
        outbound: Outbound = Outbound(address: nil), snapshots: SnapshotPolicy = .defaults,
        transports: Connections.Transports = .sockets, sharing shared: Connections? = nil,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> TimelineServer {
        let journal = try given ?? directory.map { try Journal(directory: $0, name: "timeline") } ?? Journal.inMemory()
        let feed = EntryFeed()
        // Providers answer timelines of up to 10 MiB.
        let clients =
            shared.map(Connections.init(sharing:))
            ?? Connections(maxReceiveMessageSize: ContentLimits.timelineMessageBytes, transports: transports)
        let hintsBox = HintsBox()
        // The state is values all through (a stored timeline is never changed once made):
        // its snapshots are encoded from a copy beside the host, not between two answers.
        var snapshotting = Snapshotting<TimelineState>(policy: snapshots, report: report)
        snapshotting.encodesAside = true
        let host = try TimelineHandlers.Host(
            engine: TimelineState(scheduler: TimelineScheduler(clock: clock, settings: settings)),
            clock: clock, journal: journal, snapshotting: snapshotting,
            apply: TimelineState.apply,
            perform: { host, effects in
                await Self.perform(
                    effects, host: host, feed: feed, clients: clients, timeout: settings.providerTimeout,
                    scale: settings.deviceScreen.scale, hints: hintsBox.hints)
            })
        let hints = AssetHints(outbound: outbound, connections: clients, host: host)
        hintsBox.hints = hints
        return TimelineServer(
            host: host, feed: feed, clients: clients,
            handlers: TimelineHandlers(
                host: host, feed: feed, hints: hints,
                previews: .init(clients: clients, timeout: settings.providerTimeout, scale: settings.deviceScreen.scale)
            ),
            clock: ClockService(host: host, watermark: { feed.sequence }),
            hints: hints)
    }

    /// The hints, set once the host they read exists (the host's effects need them first).
    final class HintsBox: Sendable {
        private let value = Mutex<AssetHints?>(nil)
        var hints: AssetHints? {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// Carries out the engine's effects: entry changes go to the watchers, provider calls go
    /// out together and each answer comes back through the host (journaled like any input).
    static func perform(
        _ effects: [TimelineEffect], host: TimelineHandlers.Host, feed: EntryFeed, clients: Connections,
        timeout: TimeInterval, scale: Double = DeviceScreen.default.scale, hints: AssetHints? = nil
    ) async {
        var calls: [(ProviderCall.Asked, String?)] = []
        var changes: [GlimpseTimelineV1.EntryChange] = []
        let at = GoogleProtobuf.Timestamp(host.clock.now)
        await host.read { state in
            func change(_ id: PlacementID) -> GlimpseTimelineV1.EntryChange {
                let placement = state.scheduler.placement(id)
                var change = GlimpseTimelineV1.EntryChange()
                change.placementId = id.rawValue
                change.bundleId = placement?.app.rawValue ?? ""
                change.kind = placement?.kind ?? ""
                change.at = at
                return change
            }
            for effect in effects {
                switch effect {
                case .entryChanged(let id, let entry):
                    var entryChange = change(id)
                    entryChange.entry = entry?.entry.wire
                    changes.append(entryChange)
                case .placeholderShown(let id, let entry):
                    var shown = change(id)
                    shown.placeholder = entry.wire
                    changes.append(shown)
                case .fetchPlaceholder(let request):
                    calls.append(
                        (.placeholder(request), state.apps[request.app]?.manifest.providerEndpoint(of: request.kind)))
                case .fetchTimeline(let request):
                    calls.append(
                        (.timeline(request), state.apps[request.app]?.manifest.providerEndpoint(of: request.kind)))
                    var started = change(request.placement)
                    var reload = GlimpseTimelineV1.ReloadStarted()
                    reload.reason = request.reason.wire
                    reload.charged = request.charged
                    reload.retry = UInt32(clamping: request.retry)
                    reload.budget = state.scheduler.reloadStatus(of: request.placement).map {
                        TimelineHandlers.budget(of: request.placement, $0)
                    }
                    started.reload = reload
                    changes.append(started)
                case .entryAnswered(let id):
                    // Its `entryChanged` was the last change of this placement.
                    if let last = changes.lastIndex(where: { $0.placementId == id.rawValue }) {
                        changes[last].answer = true
                    }
                case .timelineUnchanged(let id):
                    var unchanged = change(id)
                    unchanged.unchanged = true
                    unchanged.answer = true
                    changes.append(unchanged)
                case .retryScheduled(let id, _, _), .timelineRejected(let id, _):
                    if let error = state.lastErrors[id] {
                        var failed = change(id)
                        failed.providerError = error
                        failed.answer = true
                        changes.append(failed)
                    }
                default:
                    break
                }
            }
        }
        feed.publish(contentsOf: changes)
        hints?.take(changes)
        guard !calls.isEmpty else { return }
        let now = host.clock.now
        // One app's slow provider never holds up another's (see `callOut`); each app's
        // answers go in in the order the engine asked (a placeholder before the timeline
        // asked with it), as many at once as have arrived.
        await host.callOut(calls) { asked, _ in
            asked.app.rawValue
        } call: { asked, endpoint in
            await ProviderCall.call(
                asked, endpoint: endpoint, clients: clients, timeout: timeout, now: now, scale: scale)
        } take: { answers in
            // The batch answers per answer (a refusal: its call was abandoned meanwhile, or a
            // placeholder over a limit); it throws only when the host failed (`host.failed`:
            // health NOT_SERVING and a restart, see `ServiceRunner.addHost`) or closed (shutting
            // down): nothing to answer here either way.
            let commands = answers.compactMap { answer in answer.map { TimelineCommand($0) } }
            do { _ = try await host.submit(batch: commands) } catch {}
        }
    }

    package func close() async throws {
        feed.finish()
        await hints?.finish()
        await clients.shutdown()
        try await host.close()
    }
}
