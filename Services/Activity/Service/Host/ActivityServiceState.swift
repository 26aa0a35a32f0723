#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import ActivityEngine
import DequeModule
package import GlimpseVocabulary
package import GlimpseMessages
import ServiceKit

/// Everything glimpse-activity knows, as one engine the host journals and replays: the
/// activity manager, plus what the service keeps beside it — installed apps with their
/// manifests and tokens, broadcast channels, widget push tokens, tokens that no longer
/// work (for 410), injected faults, and the push log.
package struct ActivityServiceState: Engine, AppTokenIndex {
    package struct InstalledRecord: Sendable, Hashable {
        package var manifest: GlimpseAppV1.AppManifest
        package var token: String
    }

    /// A broadcast channel made through channel management.
    package struct Channel: Sendable, Hashable, Codable {
        package var app: AppID
        package var messageStoragePolicy: Int32
    }

    /// Why a token answers 410, and since when.
    package struct RetiredToken: Sendable, Hashable, Codable {
        package enum Reason: String, Sendable, Hashable, Codable {
            /// Replaced by a newer token (rotation): APNs's ExpiredToken.
            case expiredToken = "ExpiredToken"
            /// Its activity is gone or its app was uninstalled: APNs's Unregistered.
            case unregistered = "Unregistered"
        }

        package var reason: Reason
        package var since: Date
    }

    /// An injected fault: the next `remaining` pushes for the target answer it.
    package struct Fault: Sendable, Hashable, Codable {
        package enum Target: Sendable, Hashable, Codable {
            case deviceToken(String)
            case topic(String)
        }

        package var id: UInt64
        package var target: Target
        package var remaining: Int
        package var status: Int32
        package var reason: String
        package var goaway: Bool
    }

    package var manager: ActivityManager
    package internal(set) var apps: [AppID: InstalledRecord] = [:]
    var tokens: [String: AppID] = [:]
    package internal(set) var channels: [ChannelID: Channel] = [:]
    package internal(set) var widgetTokens: [PushToken: AppID] = [:]
    var widgetTokenOfApp: [AppID: PushToken] = [:]
    package internal(set) var retired: [PushToken: RetiredToken] = [:]
    /// The current update token of each activity and push-to-start token of each app and
    /// type, to retire the old one when a new one is issued.
    var activityTokens: [ActivityID: PushToken] = [:]
    var pushToStartTokens: [String: PushToken] = [:]
    /// The app of each current push-to-start token.
    var pushToStartOwners: [PushToken: AppID] = [:]
    package internal(set) var faults: [Fault] = []
    var nextFaultID: UInt64 = 1
    /// The most recent pushes, oldest first, at most `pushLogLimit`: with snapshots on, those
    /// since the last one (the older ones are in the journal's archive, see `pushArchive`).
    var pushLog: Deque<GlimpseActivityV1.PushRecord> = []
    package internal(set) var pushSequence: UInt64 = 0
    package let pushLogLimit: Int
    var identifiers: HashedIdentifiers

    package init(manager: ActivityManager, seed: [UInt8], pushLogLimit: Int = 100_000) {
        self.manager = manager
        self.identifiers = HashedIdentifiers(seed: seed)
        self.pushLogLimit = pushLogLimit
    }

    /// Logged pushes in memory after `sequence`, oldest first, at most `limit`, of `app` (or
    /// all); `ActivityServer.pushes` adds the archived ones.
    package func pushes(after sequence: UInt64, limit: Int, app: AppID?) -> [GlimpseActivityV1.PushRecord] {
        var found: [GlimpseActivityV1.PushRecord] = []
        // Sequences count up by one along the log: skip to the first after `sequence` (all of
        // it is read should that ever not hold).
        var skip = pushLog.first.map { sequence >= $0.sequence ? Int(sequence - $0.sequence) + 1 : 0 } ?? 0
        if skip > 0, skip <= pushLog.count, pushLog[skip - 1].sequence != sequence { skip = 0 }
        for record in pushLog.dropFirst(skip) where record.sequence > sequence {
            if let app, record.bundleId != app.rawValue { continue }
            found.append(record)
            if found.count >= limit { break }
        }
        return found
    }

    /// The app an app token belongs to.
    package func app(forToken token: String) -> AppID? { tokens[token] }

    package mutating func nextDeadline() -> Date? { manager.nextDeadline() }

    package mutating func fireDue() -> [ActivityServiceEffect] { noted(manager.fireDue()) }

    /// Keeps the token bookkeeping in step with the engine's events and wraps them.
    mutating func noted(_ events: [ActivityEvent]) -> [ActivityServiceEffect] {
        let now = manager.clock.now
        for event in events {
            switch event {
            case .pushTokenIssued(let id, let token):
                if let old = activityTokens[id], old != token {
                    retired[old] = RetiredToken(reason: .expiredToken, since: now)
                }
                activityTokens[id] = token
            case .pushToStartTokenIssued(let app, let type, let token):
                let key = "\(app.rawValue)\u{0}\(type)"
                if let old = pushToStartTokens[key], old != token {
                    retired[old] = RetiredToken(reason: .expiredToken, since: now)
                    pushToStartOwners[old] = nil
                }
                pushToStartTokens[key] = token
                pushToStartOwners[token] = app
            case .stateChanged(let id, _, .dismissed, _):
                if let old = activityTokens.removeValue(forKey: id) {
                    retired[old] = RetiredToken(reason: .unregistered, since: now)
                }
            default:
                break
            }
        }
        return events.map { .event($0) }
    }

    /// Appends a push to the log, numbered, dropping the oldest past the limit.
    mutating func log(_ record: consuming GlimpseActivityV1.PushRecord) {
        pushSequence += 1
        record.sequence = pushSequence
        pushLog.append(record)
        if pushLog.count > pushLogLimit { pushLog.removeFirst(pushLog.count - pushLogLimit) }
    }
}

/// What glimpse-activity carries out after a change is journaled.
package enum ActivityServiceEffect: Sendable, Hashable {
    /// A change the engine made (state, content, tokens, drops): to the watchers.
    case event(ActivityEvent)
    /// A widget push (iOS 26): `reloadAllTimelines()` for the app at glimpse-timeline.
    case reloadWidgets(AppID)
    /// An app's widget push token was issued (update and push-to-start tokens come as events).
    case widgetTokenIssued(PushToken)
}
