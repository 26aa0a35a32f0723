#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

extension ActivityManager {
    /// A push to one device token, body as received. Parses and checks the body, then
    /// routes it: update tokens take `update`/`end`, push-to-start tokens take `start`.
    mutating func acceptPush(headers: LiveActivityPushHeaders, deviceToken: PushToken, body: [UInt8]) -> PushOutcome {
        let push: LiveActivityPush
        do { push = try LiveActivityPush.parse(body, payloadLimit: config.pushPayloadLimit) } catch {
            return .rejected(.invalidPayload(error))
        }
        return acceptPush(headers: headers, deviceToken: deviceToken, push)
    }

    /// A push already parsed (e.g. arriving over gRPC as fields).
    ///
    /// Order of rules for an update token: unknown token or wrong app → rejected; ended
    /// → ignored; `update` stamped more than 8 h ahead → dropped; older than the last
    /// applied → dropped; priority 10 over the hourly budget → throttled; priority 5
    /// with a delay setting → deferred/coalesced; otherwise applied.
    mutating func acceptPush(
        headers: LiveActivityPushHeaders, deviceToken: PushToken, _ push: LiveActivityPush
    ) -> PushOutcome {
        fireDueTimers()
        if let id = updateTokens[deviceToken] {
            guard activities[id]?.app == headers.app else { return .rejected(.deviceTokenNotForTopic) }
            guard push.event != .start else {
                return .rejected(
                    .eventNotAllowed(
                        .start, reason: "an update token cannot start an activity; use the push-to-start token"))
            }
            return deliver(push, to: id, priority: headers.priority)
        }
        if let key = pushToStart.byToken[deviceToken] {
            guard key.app == headers.app else { return .rejected(.deviceTokenNotForTopic) }
            guard push.event == .start else {
                return .rejected(.eventNotAllowed(push.event, reason: "a push-to-start token only takes start events"))
            }
            return start(push, key: key)
        }
        return .rejected(.badDeviceToken)
    }

    /// The rules shared by token and broadcast delivery to one activity.
    mutating func deliver(
        _ push: LiveActivityPush, to id: ActivityID, priority: Int, budgeted: Bool = true
    ) -> PushOutcome {
        guard let i = activities.index(forKey: id) else { return .rejected(.badDeviceToken) }
        let record = activities.values[i]
        guard record.state.isOngoing else { return .ignoredBecauseEnded(id, record.state) }
        let now = clock.now
        if let drop = timestampDrop(push.timestamp, of: record) { return .droppedAsStale(id, reportDrop(drop, of: id)) }
        // Everything that can refuse the push is checked before the budget is charged.
        if let refusal = contentRefusal(of: push, for: record) { return .rejected(refusal) }
        if budgeted && priority == 10, let retry = chargeHourlyBudget(at: i, now: now) {
            return .throttled(.hourlyBudgetExceeded(id, budget: hourlyBudget(for: record.app), retryAfter: retry))
        }
        if priority == 5, let delay = config.lowPriorityDelay {
            let coalesced = deferredPushes[id] != nil
            let until = activities.values[i].timers[.deferredPush].due ?? now.addingTimeInterval(delay)
            deferredPushes[id] = push
            activities.values[i].timers[.deferredPush].due = until
            queueTimers(at: i)
            return coalesced ? .coalesced(id, until: until) : .deferred(id, until: until)
        }
        return apply(push, to: id)
    }

    /// Why a push's content cannot apply to `record` (missing, or too large with the
    /// attributes when they count); nil when it can.
    func contentRefusal(of push: LiveActivityPush, for record: ActivityRecord) -> PushRejection? {
        guard let state = push.contentState else {
            return push.event == .update ? .invalidPayload(.missingField("aps.content-state")) : nil
        }
        guard state.count <= config.contentStateLimit else {
            return .invalidPayload(.contentStateTooLarge(size: state.count, limit: config.contentStateLimit))
        }
        guard fits(ActivityContent(state: state), attributes: record.attributes) else {
            return .refused(.attributesTooLarge)
        }
        return nil
    }

    /// Applies an already-admitted update or end push.
    mutating func apply(_ push: LiveActivityPush, to id: ActivityID) -> PushOutcome {
        guard let record = activities[id] else { return .rejected(.badDeviceToken) }
        let content = push.contentState.map {
            ActivityContent(
                state: $0, staleDate: push.staleDate,
                relevanceScore: push.relevanceScore ?? record.content.relevanceScore)
        }
        switch push.event {
        case .update:
            guard let content else { return .rejected(.invalidPayload(.missingField("aps.content-state"))) }
            return outcome(
                of: applyUpdate(id, content: content, alert: push.alert?.configuration, timestamp: push.timestamp), id)
        case .end:
            let policy: DismissalPolicy = push.dismissalDate.map { .after($0) } ?? .default
            return outcome(
                of: applyEnd(id, content: content, policy: policy, timestamp: push.timestamp, reason: .endedByPush), id)
        case .start:
            return .rejected(.eventNotAllowed(.start, reason: "an activity cannot be started twice"))
        }
    }

    /// Charges one priority-10 push; returns when to retry if the budget is spent.
    private mutating func chargeHourlyBudget(at i: Dictionary<ActivityID, ActivityRecord>.Index, now: Date) -> Date? {
        let hourAgo = now.addingTimeInterval(-3600)
        while let first = activities.values[i].budgetWindow.first, first <= hourAgo {
            activities.values[i].budgetWindow.removeFirst()
        }
        if activities.values[i].budgetWindow.count >= hourlyBudget(for: activities.values[i].app) {
            return (activities.values[i].budgetWindow.first ?? now).addingTimeInterval(3600)
        }
        activities.values[i].budgetWindow.append(now)
        return nil
    }

    /// The app's hourly priority-10 budget: raised when frequent pushes are enabled.
    package func hourlyBudget(for app: AppID) -> Int {
        apps[app]?.frequentPushesEnabled == true ? config.frequentHourlyPushBudget : config.hourlyPushBudget
    }

    /// The held priority-5 push, now due.
    mutating func deliverDeferredPush(at i: Dictionary<ActivityID, ActivityRecord>.Index) {
        let id = activities.keys[i]
        guard let push = deferredPushes.removeValue(forKey: id) else { return }
        let result = apply(push, to: id)
        if case .applied = result { return }
        emit(.deferredPushDropped(id, result))
    }

    private func outcome(of result: UpdateResult, _ id: ActivityID) -> PushOutcome {
        switch result {
        case .applied(let state): .applied(id, state)
        case .droppedAsStale(let reason): .droppedAsStale(id, reason)
        case .ignoredBecauseEnded(let state): .ignoredBecauseEnded(id, state)
        case .rejected(let error): .rejected(.refused(error))
        case .unknownActivity: .rejected(.badDeviceToken)
        }
    }

    private func outcome(of result: EndResult, _ id: ActivityID) -> PushOutcome {
        switch result {
        case .applied(let state, _): .applied(id, state)
        case .droppedAsStale(let reason): .droppedAsStale(id, reason)
        case .ignoredBecauseEnded(let state): .ignoredBecauseEnded(id, state)
        case .rejected(let error): .rejected(.refused(error))
        case .unknownActivity: .rejected(.badDeviceToken)
        }
    }
}
