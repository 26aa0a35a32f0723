#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import ActivityEngine
import GlimpseJSON
package import GlimpseMessages
package import GlimpseVocabulary
package import ProtoMapping

/// The engine's values on the wire of glimpse.activity.v1, and back (refusing what does
/// not fit with the field's name).
extension ActivityState {
    package var wire: GlimpseActivityV1.ActivityState {
        switch self {
        case .pending: .pending
        case .active: .active
        case .stale: .stale
        case .ended: .ended
        case .dismissed: .dismissed
        }
    }
}

extension ActivityContent {
    package init(_ wire: GlimpseActivityV1.Content?, field: String) throws(InvalidField) {
        guard let wire else { throw InvalidField(field, "content is required") }
        let state: JSONObjectBytes
        do {
            state = try JSONObjectBytes(validating: Array(wire.stateJson.utf8))
        } catch {
            throw InvalidField("\(field).state_json", "must be a JSON object: \(error)")
        }
        guard wire.relevanceScore.isFinite else {
            throw InvalidField("\(field).relevance_score", "must be a finite number")
        }
        self.init(
            state: state, staleDate: try wire.staleDate?.date(field: "\(field).stale_date"),
            relevanceScore: wire.relevanceScore)
    }

    package var wire: GlimpseActivityV1.Content {
        var content = GlimpseActivityV1.Content()
        content.stateJson = String(decoding: state.bytes, as: UTF8.self)
        content.staleDate = staleDate.map(GoogleProtobuf.Timestamp.init)
        content.relevanceScore = relevanceScore
        return content
    }
}

extension AlertConfiguration {
    package var wire: GlimpseActivityV1.Alert {
        var alert = GlimpseActivityV1.Alert()
        alert.title = title
        alert.body = body
        alert.sound = sound ?? ""
        return alert
    }

    package init?(_ wire: GlimpseActivityV1.Alert?) {
        guard let wire else { return nil }
        self.init(title: wire.title, body: wire.body, sound: wire.sound.isEmpty ? nil : wire.sound)
    }
}

extension DismissalPolicy {
    package init(_ wire: GlimpseActivityV1.DismissalPolicy?, field: String) throws(InvalidField) {
        switch wire?.policy {
        case nil, .defaultPolicy?: self = .default
        case .immediate?: self = .immediate
        case .after(let date)?: self = .after(try date.date(field: "\(field).after"))
        }
    }
}

extension ActivitySnapshot {
    package var wire: GlimpseActivityV1.Activity {
        var activity = GlimpseActivityV1.Activity()
        activity.activityId = id.description
        activity.bundleId = app.rawValue
        activity.attributesType = attributes.typeName
        activity.attributesJson = String(decoding: attributes.value.bytes, as: UTF8.self)
        activity.content = content.wire
        activity.state = state.wire
        activity.pushToken = pushToken?.hex ?? ""
        if case .channel(let channel)? = pushType { activity.channelId = channel.base64 }
        activity.activatedAt = activatedAt.map(GoogleProtobuf.Timestamp.init)
        activity.endedAt = endedAt.map(GoogleProtobuf.Timestamp.init)
        activity.dismissalDate = dismissalDate.map(GoogleProtobuf.Timestamp.init)
        activity.lastAlert = lastAlert?.wire
        activity.lastAlertAt = lastAlertAt.map(GoogleProtobuf.Timestamp.init)
        activity.startOrder = startOrder
        return activity
    }
}

extension String {
    /// The text with each NUL shown as U+FFFD: protobuf-c's strings end at NUL, so text a
    /// push server sent (a JSON string, a header) must lose them before it goes on the wire.
    package var wireSafe: String {
        // U+0000 is the byte 0 in UTF-8 and nothing else is: a byte scan, not a walk over Characters.
        // Over the contiguous bytes (a native string's): the UTF8View's own walk costs ~7x more.
        let hasNUL = utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? utf8.contains(0)
        return hasNUL ? String(unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : Character($0) }) : self
    }
}

extension GlimpseActivityV1.Outcome {
    package init(
        _ kind: Kind, _ detail: String, activity: ActivityID? = nil, state: ActivityState? = nil, until: Date? = nil
    ) {
        self.init()
        self.kind = kind
        self.detail = detail.wireSafe
        activityId = activity?.description ?? ""
        self.state = state?.wire ?? .unspecified
        self.until = until.map(GoogleProtobuf.Timestamp.init)
    }

    package static func dropped(_ reason: DropReason, activity: ActivityID?) -> Self {
        switch reason {
        case .olderThanLastApplied(let timestamp, let last):
            Self(.droppedAsOlder, "timestamp \(timestamp) is older than the last applied \(last)", activity: activity)
        case .timestampTooFarInFuture(let timestamp, let limit):
            Self(.droppedTooFarAhead, "timestamp \(timestamp) is past the future limit \(limit)", activity: activity)
        }
    }

    package init(_ result: UpdateResult, activity: ActivityID) {
        switch result {
        case .applied(let state): self.init(.applied, "applied", activity: activity, state: state)
        case .droppedAsStale(let reason): self = .dropped(reason, activity: activity)
        case .ignoredBecauseEnded(let state):
            self.init(.ignoredAfterEnd, "the activity has ended", activity: activity, state: state)
        case .rejected(let error): self.init(.rejected, error.rawValue, activity: activity)
        case .unknownActivity: self.init(.unknownActivity, "no such activity", activity: activity)
        }
    }

    package init(_ result: EndResult, activity: ActivityID) {
        switch result {
        case .applied(let state, let dismissal):
            self.init(.applied, "ended; dismissed at \(dismissal)", activity: activity, state: state, until: dismissal)
        case .droppedAsStale(let reason): self = .dropped(reason, activity: activity)
        case .ignoredBecauseEnded(let state):
            self.init(.ignoredAfterEnd, "the activity has ended", activity: activity, state: state)
        case .rejected(let error): self.init(.rejected, error.rawValue, activity: activity)
        case .unknownActivity: self.init(.unknownActivity, "no such activity", activity: activity)
        }
    }

    package init(_ outcome: PushOutcome) {
        switch outcome {
        case .applied(let id, let state): self.init(.applied, "applied", activity: id, state: state)
        case .started(let id): self.init(.started, "started by push", activity: id)
        case .deferred(let id, let until):
            self.init(.deferred, "priority 5: held until \(until)", activity: id, until: until)
        case .coalesced(let id, let until):
            self.init(.coalesced, "priority 5: replaced the held push; applies at \(until)", activity: id, until: until)
        case .droppedAsStale(let id, let reason): self = .dropped(reason, activity: id)
        case .startDropped(let reason): self = .dropped(reason, activity: nil)
        case .ignoredBecauseEnded(let id, let state):
            self.init(.ignoredAfterEnd, "pushes after the end are ignored", activity: id, state: state)
        case .throttled(let reason):
            switch reason {
            case .hourlyBudgetExceeded(let id, _, let retry):
                self.init(.throttled, reason.description, activity: id, until: retry)
            case .pushToStartBudgetExceeded(_, _, let retry):
                self.init(.throttled, reason.description, until: retry)
            }
        case .rejected(let rejection): self.init(.rejected, "\(rejection.apnsReason): \(rejection.description)")
        }
    }
}

extension GlimpseActivityV1.ActivityChange {
    /// The wire form of one engine event (nil for none a watcher needs).
    package init?(_ event: ActivityEvent, manager: ActivityManager, at: Date) {
        self.init()
        self.at = GoogleProtobuf.Timestamp(at)
        // The activity the event names, kept as it is (parsing its text back is sscanf's work).
        var activity: ActivityID?
        switch event {
        case .stateChanged(let id, let from, let to, let reason):
            activity = id
            activityId = id.description
            var change = StateChange()
            change.from = from?.wire ?? .unspecified
            change.to = to.wire
            change.reason = reason.rawValue
            if to == .ended {
                change.dismissalDate = manager.activity(id)?.dismissalDate.map(GoogleProtobuf.Timestamp.init)
            }
            self.change = .state(change)
        case .contentUpdated(let id, let content, let alert):
            activity = id
            activityId = id.description
            var change = ContentChange()
            change.content = content.wire
            change.alert = alert?.wire
            self.change = .content(change)
        case .pushTokenIssued(let id, let token):
            activity = id
            activityId = id.description
            var issued = TokenIssued()
            issued.pushToken = token.hex
            self.change = .pushToken(issued)
        case .pushToStartTokenIssued(let app, let type, let token):
            bundleId = app.rawValue
            var issued = TokenIssued()
            issued.pushToken = token.hex
            issued.attributesType = type
            self.change = .pushToStartToken(issued)
        case .deferredPushDropped(let id, let outcome):
            activity = id
            activityId = id.description
            self.change = .dropped(GlimpseActivityV1.Outcome(outcome))
        case .changeDropped(let id, let reason):
            activity = id
            activityId = id.description
            self.change = .dropped(.dropped(reason, activity: id))
        }
        if bundleId.isEmpty, let activity { bundleId = manager.app(of: activity)?.rawValue ?? "" }
    }
}
