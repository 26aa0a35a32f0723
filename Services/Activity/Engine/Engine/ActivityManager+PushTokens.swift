#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

extension ActivityManager {
    /// Issues a new update token to a `.token` activity and retires the old one
    /// (a device rotates tokens; the app is woken to send the new one to its server).
    /// Returns nil when the activity is unknown, not `.token`, or ended.
    mutating func performTokenRotation(_ id: ActivityID) -> PushToken? {
        fireDueTimers()
        guard let i = activities.index(forKey: id), activities.values[i].pushType == .token,
            activities.values[i].state.isOngoing
        else { return nil }
        activities.values[i].timers[.pushToken].due = nil
        return issueUpdateToken(at: i)
    }

    @discardableResult
    mutating func issueUpdateToken(at i: Dictionary<ActivityID, ActivityRecord>.Index) -> PushToken {
        let id = activities.keys[i]
        if let old = activities.values[i].pushToken { updateTokens[old] = nil }
        let token = identifiers.nextPushToken()
        activities.values[i].pushToken = token
        updateTokens[token] = id
        emit(.pushTokenIssued(id, token))
        return token
    }

    /// ActivityKit's `pushToStartToken` for one app and attributes type: the current
    /// one, or a new one (reported as `.pushToStartTokenIssued`) the first time.
    mutating func currentPushToStartToken(
        app: AppID, attributesType: String
    ) -> Result<PushToken, ActivityAuthorizationError> {
        guard device.supportsLiveActivities else { return .failure(.unsupported) }
        guard apps[app]?.attributeTypes.contains(attributesType) == true else { return .failure(.unsupportedTarget) }
        let key = PushToStartRegistry.Key(app: app, attributesType: attributesType)
        if let token = pushToStart.byKey[key] { return .success(token) }
        return .success(issuePushToStartToken(key))
    }

    /// Replaces the push-to-start token (`pushToStartTokenUpdates` yields the new one).
    mutating func performPushToStartRotation(
        app: AppID, attributesType: String
    ) -> Result<PushToken, ActivityAuthorizationError> {
        guard apps[app]?.attributeTypes.contains(attributesType) == true else { return .failure(.unsupportedTarget) }
        return .success(issuePushToStartToken(.init(app: app, attributesType: attributesType)))
    }

    private mutating func issuePushToStartToken(_ key: PushToStartRegistry.Key) -> PushToken {
        let token = identifiers.nextPushToken()
        pushToStart.set(token, for: key)
        emit(.pushToStartTokenIssued(key.app, attributesType: key.attributesType, token))
        return token
    }
}
