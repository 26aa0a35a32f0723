#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseVocabulary
package import EngineHosting
import GlimpseMessages
import GlimpseRPC
package import IntentEngine
import ProtoMapping
package import ServiceKit
import RPCCore
import Synchronization

/// glimpse-intent assembled: the journal under the data directory, the engine host, the
/// store feed, the tap waiters, the outbound connections (the apps' IntentHandlers and
/// glimpse-timeline), and the handlers that serve them.
package struct IntentServer: Sendable {
    package let host: IntentHandlers.Host
    package let feed: StoreFeed
    package let waiters: TapWaiters
    package let connections: Connections
    package let handlers: IntentHandlers
    package let clock: ClockService<IntentState, IntentCommand>
    /// Takes the reloads taps ask for to glimpse-timeline (run `ReloadDeliveryService` for its retries).
    package let delivery: ReloadDelivery

    /// Opens (restores and replays) the journal `<directory>/intent.sqlite`, or an in-memory
    /// one, saving snapshots as `snapshots` says (failures go to `report`). `sharing`: another
    /// server's pool, whose connections this one calls on (a device's).
    package static func open(
        directory: URL?, journal given: Journal? = nil, clock: HostClock, settings: IntentSettings = .defaults,
        outbound: Outbound,
        snapshots: SnapshotPolicy = .defaults, transports: Connections.Transports = .sockets,
        sharing shared: Connections? = nil,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> IntentServer {
        let journal = try given ?? directory.map { try Journal(directory: $0, name: "intent") } ?? Journal.inMemory()
        let feed = StoreFeed()
        let waiters = TapWaiters()
        let connections = shared.map(Connections.init(sharing:)) ?? Connections(transports: transports)
        let delivery = ReloadDelivery(outbound: outbound, connections: connections)
        let host = try IntentHandlers.Host(
            engine: IntentState(executor: IntentExecutor(clock: clock, settings: settings)),
            clock: clock, journal: journal, snapshotting: Snapshotting(policy: snapshots, report: report),
            apply: IntentState.apply,
            perform: { host, effects in
                await Self.perform(
                    effects, host: host, feed: feed, waiters: waiters, connections: connections,
                    timeout: settings.handlerTimeout, delivery: delivery)
            })
        return IntentServer(
            host: host, feed: feed, waiters: waiters, connections: connections,
            handlers: IntentHandlers(host: host, feed: feed, waiters: waiters),
            clock: ClockService(host: host, watermark: { feed.sequence }),
            delivery: delivery)
    }

    /// Carries out the executor's effects in the executor's order: store changes go to the
    /// watchers, reloads (kept in the outbox with the tap that asked) go to glimpse-timeline,
    /// and only then do completions answer their waiting Perform calls (so when a tap is
    /// answered its reloads have been requested, and a script on a manual clock sees them
    /// before its next step; with glimpse-timeline down the tap is answered and its reloads
    /// wait in the outbox); handler calls go out together (each answer comes back through
    /// the host, journaled as a `HandlerAnswer`).
    static func perform(
        _ effects: [IntentEffect], host: IntentHandlers.Host, feed: StoreFeed, waiters: TapWaiters,
        connections: Connections, timeout: TimeInterval, delivery: ReloadDelivery
    ) async {
        var calls: [(HandlerCall, endpoint: String?, kind: String, key: String)] = []
        var reloads = false
        var completions: [TapCompletion] = []
        for effect in effects {
            switch effect {
            case .completed(let completion): completions.append(completion)
            case .storeChanged(let group, let sequence): feed.publish(group, sequence: sequence)
            case .callHandler(let call):
                let (endpoint, kind, key) = await host.read { state in
                    (
                        state.handlerEndpoint(app: call.app, intent: call.intent),
                        call.placement.flatMap { state.executor.placement($0)?.kind } ?? "",
                        state.callKeys[call.id] ?? ""
                    )
                }
                calls.append((call, endpoint, kind, key))
            case .reloadPlacement, .reloadTimelines, .reloadAllTimelines: reloads = true
            case .alreadyRunning, .cancelHandlerCall, .nextWakeUp: break
            }
        }
        if reloads { await delivery.deliver(host) }
        for completion in completions { waiters.resolve(completion) }
        guard !calls.isEmpty else { return }
        // One app's slow handler never holds up another's (see `callOut`); each app's
        // answers go in in the order the executor asked.
        await host.callOut(calls) { call in
            call.0.app.rawValue
        } call: { call in
            await handlerAnswer(
                call.0, endpoint: call.endpoint, kind: call.kind, key: call.key,
                connections: connections, timeout: timeout)
        } take: { answers in
            // The batch answers per answer (a refusal: its call was abandoned meanwhile); it throws only
            // when the host failed (`host.failed`: health NOT_SERVING and a restart, see
            // `ServiceRunner.addHost`) or closed (shutting down): nothing to answer here either way.
            do { _ = try await host.submit(batch: answers.map { IntentCommand(.handlerAnswer($0)) }) } catch {}
        }
    }

    /// Calls the app's `IntentHandler.Perform` with the handler timeout as its deadline;
    /// every failure becomes a failed outcome.
    static func handlerAnswer(
        _ call: HandlerCall, endpoint: String?, kind: String, key: String, connections: Connections,
        timeout: TimeInterval
    ) async -> GlimpseIntentV1.HandlerAnswer {
        var answer = GlimpseIntentV1.HandlerAnswer()
        answer.callId = call.id.rawValue
        func failed(_ message: String) -> GlimpseAppV1.PerformResponse {
            GlimpseAppV1.PerformResponse(outcome: .failed(GlimpseAppV1.PerformResponse.Failed(message: message)))
        }
        guard let endpoint, let client = connections.client(for: endpoint) else {
            answer.outcome = failed("UNAVAILABLE: the app names no handler endpoint for \(call.intent)")
            return answer
        }
        var request = GlimpseAppV1.PerformRequest()
        request.intentType = call.intent
        request.parameters = call.parameters.mapValues(\.wire)
        switch call.target {
        case .placement(let id):
            request.placementId = id.rawValue
            request.kind = kind
        case .activity(let id, let attributesType):
            request.activityId = id
            request.attributesType = attributesType
        }
        request.idempotencyKey = key
        do {
            let response = try await GlimpseAppV1.IntentHandler.Client(wrapping: client).perform(
                ClientRequest(message: request),
                options: CallOptions(timeout: .milliseconds(Int64(timeout * 1000)), inheritsDeadline: false))
            answer.outcome = response.message
        } catch let rpc as RPCError {
            answer.outcome = failed("\(rpc.code): \(rpc.message)")
        } catch {
            answer.outcome = failed("UNAVAILABLE: \(error)")
        }
        return answer
    }

    package func close() async throws {
        feed.finish()
        waiters.finish()
        await connections.shutdown()
        try await host.close()
    }
}
