#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineHosting
import GlimpseMessages
import GlimpseVocabulary
import GlimpseRPC
import IntentEngine
import RPCCore
package import ServiceKit
import ServiceLifecycle

/// Takes the reloads taps asked for (`IntentState.outbox`) to glimpse-timeline, oldest first,
/// each until glimpse-timeline has it: a tap answered while glimpse-timeline is down keeps
/// its reloads, through a restart of either service, and they are applied once (each carries
/// its `request_id`). A reload that no longer applies (the placement or the app is gone) is
/// dropped. One pass at a time, so reloads reach glimpse-timeline in the order taps asked.
package final class ReloadDelivery: Sendable {
    let outbound: Outbound
    let connections: Connections
    private let passes = StepLock()
    private let wanted: AsyncStream<Void>.Continuation
    private let wants: AsyncStream<Void>

    package init(outbound: Outbound, connections: Connections) {
        self.outbound = outbound
        self.connections = connections
        (wants, wanted) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Sends what is pending, in order, until one fails for a reason that may pass
    /// (glimpse-timeline unreachable); journals what was taken. True when nothing is left.
    @discardableResult
    func deliver(_ host: IntentHandlers.Host) async -> Bool {
        await passes.run { () async -> Bool in
            let pending = await host.read(\.outbox)
            guard !pending.isEmpty else { return true }
            var delivered: [UInt64] = []
            var stuck = false
            for reload in pending {
                if await send(reload) { delivered.append(reload.id) } else { stuck = true; break }
            }
            if !delivered.isEmpty {
                var record = GlimpseIntentV1.ReloadsDelivered()
                record.ids = delivered
                do { _ = try await host.submit(IntentCommand(.reloadsDelivered(record))) } catch {
                    // Not journaled: they are sent again, and glimpse-timeline applies each once.
                    outbound.log("reloads delivered to glimpse-timeline not journaled: \(error)")
                    stuck = true
                }
            }
            if stuck { wanted.yield() }
            return !stuck
        }
    }

    /// Retries until the outbox is empty, with backoff, whenever a pass left something
    /// behind (and once at start, for what a restart found in the journal).
    func retry(_ host: IntentHandlers.Host) async {
        wanted.yield()
        for await _ in wants {
            var backoff = Duration.milliseconds(100)
            while !Task.isCancelled, !(await deliver(host)) {
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(5))
            }
        }
    }

    /// True when glimpse-timeline took it (or it no longer applies).
    private func send(_ reload: PendingReload) async -> Bool {
        guard let client = outbound.client(connections) else {
            outbound.log("no --timeline-address: dropped \(reload.reload)")
            return true
        }
        let timeline = GlimpseTimelineV1.TimelineService.Client(wrapping: client)
        // glimpse-timeline answers a reload at once (its provider calls go on beside).
        let options = CallOptions(timeout: .seconds(5))
        do {
            switch reload.reload {
            case .reloadTimelines(let kind, let app):
                var request = GlimpseTimelineV1.ReloadTimelinesRequest()
                request.bundleId = app.rawValue
                request.kind = kind
                request.reason = .intentPerformed
                request.requestId = reload.requestID
                _ = try await timeline.reloadTimelines(ClientRequest(message: request), options: options)
            case .reloadAllTimelines(let app):
                var request = GlimpseTimelineV1.ReloadAllTimelinesRequest()
                request.bundleId = app.rawValue
                request.reason = .intentPerformed
                request.requestId = reload.requestID
                _ = try await timeline.reloadAllTimelines(ClientRequest(message: request), options: options)
            case .reloadPlacement(let placement):
                var request = GlimpseTimelineV1.ReloadPlacementRequest()
                request.placementId = placement.rawValue
                request.reason = .intentPerformed
                request.requestId = reload.requestID
                _ = try await timeline.reloadPlacement(ClientRequest(message: request), options: options)
            default:
                return true
            }
            return true
        } catch let error as RPCError where [.notFound, .invalidArgument, .permissionDenied].contains(error.code) {
            outbound.log("reload no longer applies, dropped: \(reload.reload): \(error)")
            return true
        } catch {
            if (error as? RPCError)?.code == .unavailable, let address = outbound.address { connections.reset(address) }
            outbound.log("reload waits for glimpse-timeline: \(reload.reload): \(error)")
            return false
        }
    }
}

/// The retries of `ReloadDelivery`, as a service of the group.
package struct ReloadDeliveryService: Service {
    let delivery: ReloadDelivery
    let host: IntentHandlers.Host

    package init(delivery: ReloadDelivery, host: IntentHandlers.Host) {
        self.delivery = delivery
        self.host = host
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await delivery.retry(host) }
    }
}
