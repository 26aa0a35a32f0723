#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineHosting
import GlimpseMessages
import GlimpseRPC
import ProtoMapping
import ServiceKit
import RPCCore
import ServiceLifecycle
import Synchronization

/// Keeps the screen current: follows glimpse-timeline's `WatchEntries` and
/// glimpse-activity's `WatchActivities` (and its push log), logs what changed, and marks a
/// service unreachable while its stream is down — the screen keeps its last known state —
/// reconnecting with backoff; a new stream starts with the current state, so the screen
/// catches up.
package final class Followers: Service {
    let gateway: Gateway
    private let pushCursor = Mutex<UInt64>(0)

    package init(gateway: Gateway) {
        self.gateway = gateway
        gateway.conductor.afterStep.withLock { [self] in $0 = { await self.pollPushes() } }
    }

    package func run() async throws {
        await withDiscardingTaskGroup { [self] group in
            group.addTask { [self] in await follow(.timeline) { try await followEntries() } }
            group.addTask { [self] in await follow(.activity) { try await followActivities() } }
            group.addTask { [self] in
                // Pushes that changed no activity (refused, throttled, unknown token) show
                // up here on the system clock; the others are also polled before their
                // activity change, and on a manual clock after each step.
                guard !gateway.conductor.isManual else { return }
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    await pollPushes()
                }
            }
            group.addTask { [self] in await gateway.conductor.runFollowing(tick: .milliseconds(100)) }
            group.addTask { [self] in
                // Placements a failed Place left at the services (at start: a gateway killed
                // in the middle of one) are taken back as soon as the services answer: at
                // start and when a Place ends, then every 500 ms while some are left.
                while !Task.isCancelled {
                    let settled = await gateway.takeBackPending()
                    await gateway.device.placeEnds.wait(timeout: settled ? nil : .milliseconds(500))
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    private func follow(_ service: Upstreams.Service, _ body: () async throws -> Void) async {
        var backoff = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await body()
                backoff = .milliseconds(100)
            } catch {
                if Task.isCancelled { return }
                await reachability(service, false, detail: (error as? RPCError)?.message ?? "\(error)")
                gateway.upstreams.connections.reset(gateway.upstreams.addresses[service])
            }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(2))
        }
    }

    private func reachability(_ service: Upstreams.Service, _ reachable: Bool, detail: String) async {
        guard await gateway.device.setReachable(service, reachable, detail: detail) else { return }
        var event = GlimpseGatewayV1.Event.ServiceReachability()
        event.service = service.rawValue
        event.reachable = reachable
        event.detail = detail
        let summary =
            reachable
            ? "glimpse-\(service.rawValue) is reachable again"
            : "glimpse-\(service.rawValue) is unreachable (\(detail)); showing the last known state"
        gateway.event(summary: summary, .serviceReachability(event))
    }

    private func followEntries() async throws {
        let timeline = try gateway.upstreams.timeline()
        var request = GlimpseTimelineV1.WatchEntriesRequest()
        request.includeReloads = true
        // A watch answers nothing until there is something to say: a unary call shows the
        // service is back.
        _ = try await gateway.upstreams.clock(.timeline).now(
            ClientRequest(message: .init()), options: CallOptions(timeout: .seconds(5)))
        await reachability(.timeline, true, detail: "")
        try await timeline.watchEntries(ClientRequest(message: request)) { stream in
            for try await change in stream {
                if await gateway.device.entryChanged(change) { await log(change) }
                await gateway.device.streamed(change)
            }
        }
    }

    /// The event of a change glimpse-timeline streamed.
    private func log(_ change: GlimpseTimelineV1.EntryChange) async {
        let at = change.at.map(Date.init) ?? gateway.now()
        if let reload = change.reload {
            let budget = reload.budget.map { " (\($0.used)/\($0.limit) used in the window)" } ?? ""
            gateway.log.append(
                GlimpseGatewayV1.Event(
                    at: at, bundleID: change.bundleId,
                    summary:
                        "placement \(change.placementId) (\(change.kind)): provider called, \(Self.name(reload.reason))\(reload.charged ? ", charged" : ", free")\(reload.retry > 0 ? ", retry \(reload.retry)" : "")\(budget)",
                    detail: .reloadPerformed(.init(placementId: change.placementId, reload: reload))),
                source: .timeline)
            return
        }
        if let error = change.providerError {
            let retry = error.retryAt.map { ", retry at \(ISO8601.format(Date($0)))" } ?? ""
            gateway.log.append(
                GlimpseGatewayV1.Event(
                    at: at, bundleID: change.bundleId,
                    summary:
                        "placement \(change.placementId) (\(change.kind)): provider failed: \(error.code) \(error.message) (\(error.failures) in a row\(retry))",
                    detail: .providerFailed(.init(placementId: change.placementId, error: error))),
                source: .timeline)
            return
        }
        var detail = GlimpseGatewayV1.Event.EntryChanged()
        detail.placementId = change.placementId
        detail.kind = change.kind
        detail.entry = change.entry
        detail.placeholder = change.entry == nil ? change.placeholder : nil
        detail.serviceSequence = change.sequence
        let what =
            change.removed
            ? "removed"
            : change.entry.map { "entry of \(ISO8601.format(Date($0.date ?? .init())))" + summaryText($0) }
                ?? change.placeholder.map { "the app's placeholder" + summaryText($0) } ?? "placeholder"
        if change.removed { try? await gateway.device.removePlacement(change.placementId) }
        let event = GlimpseGatewayV1.Event(
            at: at, bundleID: change.bundleId,
            summary: "placement \(change.placementId) (\(change.kind)) shows \(what)",
            detail: change.removed
                ? .widgetRemoved(.init(placementId: change.placementId)) : .entryChanged(detail))
        gateway.log.append(event, source: .timeline)
    }

    static func name(_ reason: GlimpseTimelineV1.ReloadReason) -> String {
        switch reason {
        case .policy: "the timeline's policy came due"
        case .appRequest: "the app asked"
        case .placed: "placed or edited"
        case .intentPerformed: "after a tap"
        case .localeChanged: "the locale changed"
        case .accessibilityChanged: "an accessibility setting changed"
        default: "unspecified"
        }
    }

    private func summaryText(_ entry: GlimpseWidgetV1.TimelineEntry) -> String {
        let text = Elements.text(of: entry.view)
        guard !text.isEmpty else { return "" }
        return ": \"" + (text.count > 80 ? String(text.prefix(79)) + "…" : text) + "\""
    }

    private func followActivities() async throws {
        let activity = try gateway.upstreams.activity()
        // The current activities first (the stream's opening messages are changes).
        var list = GlimpseActivityV1.ListActivitiesRequest()
        list.includeDismissed = false
        let current = try await activity.listActivities(
            ClientRequest(message: list), options: CallOptions(timeout: .seconds(5))
        ).message.activities
        await gateway.device.replaceActivities(current)
        await reachability(.activity, true, detail: "")
        try await activity.watchActivities(ClientRequest(message: .init())) { stream in
            for try await change in stream {
                // The pushes behind this change go in the log before it; a poll reads a page
                // of all logged so far, so the changes a burst of pushes made ask once a page.
                while change.pushSequence > pushCursor.withLock({ $0 }), await pollPushes() {}
                if !change.activityId.isEmpty, await !gateway.device.knowsActivity(change.activityId) {
                    if let fetched = try? await activity.getActivity(
                        ClientRequest(message: .init(activityId: change.activityId))
                    ).message {
                        await gateway.device.setActivity(fetched)
                    }
                } else {
                    _ = await gateway.device.activityChanged(change)
                }
                if case .state(let state)? = change.change, state.to == .dismissed {
                    await gateway.device.setActivity(.init(activityId: change.activityId, state: .dismissed))
                }
                gateway.log.append(
                    GlimpseGatewayV1.Event(
                        at: change.at.map(Date.init) ?? gateway.now(), bundleID: change.bundleId,
                        summary: Self.describe(change), detail: .activityChanged(change)), source: .activity)
                await gateway.device.streamed(change)
            }
        }
    }

    static func describe(_ change: GlimpseActivityV1.ActivityChange) -> String {
        let id = change.activityId
        switch change.change {
        case .state(let state)?: return "activity \(id): \(state.from) → \(state.to) (\(state.reason))"
        case .content(let content)?:
            let alert = content.alert.map { " with alert \"\($0.title)\"" } ?? ""
            return "activity \(id): content \(content.content?.stateJson ?? "")\(alert)"
        case .pushToken?: return "activity \(id): push token issued"
        case .pushToStartToken(let token)?: return "push-to-start token issued for \(token.attributesType)"
        case .dropped(let outcome)?: return "activity \(id): update not applied (\(outcome.kind): \(outcome.detail))"
        case nil: return "activity \(id) changed"
        }
    }

    /// Logs the pushes glimpse-activity's endpoint received since the last poll; false when
    /// there were none (or the service did not answer).
    @discardableResult
    func pollPushes() async -> Bool {
        guard let activity = try? gateway.upstreams.activity() else { return false }
        var request = GlimpseActivityV1.ListPushesRequest()
        request.afterSequence = pushCursor.withLock { $0 }
        guard
            let pushes = try? await activity.listPushes(
                ClientRequest(message: request), options: CallOptions(timeout: .seconds(5))
            ).message.pushes,
            !pushes.isEmpty
        else { return false }
        let fresh = pushCursor.withLock { cursor -> [GlimpseActivityV1.PushRecord] in
            let fresh = pushes.filter { $0.sequence > cursor }
            cursor = max(cursor, pushes.last?.sequence ?? cursor)
            return fresh
        }
        for push in fresh {
            let outcomes = push.outcomes.map { "\($0.kind)" }.joined(separator: ", ")
            let answer = push.status == 200 ? "200" : "\(push.status) \(push.reason)"
            gateway.log.append(
                GlimpseGatewayV1.Event(
                    at: push.receivedAt.map(Date.init) ?? gateway.now(), bundleID: push.bundleId,
                    summary: "push \(push.pushType) \(push.event) to \(push.path): \(answer)"
                        + (outcomes.isEmpty ? "" : " (\(outcomes))"),
                    detail: .pushReceived(push)), source: .activity)
        }
        return true
    }
}
