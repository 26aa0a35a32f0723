import GlimpseJSON
import GlimpseVocabulary
/// What the device knows about Live Activities, set by the gateway (the device's
/// settings screen) and read by every request.
package struct DeviceSettings: Sendable, Hashable, Codable {
    /// False on a device without Live Activity support → `unsupported`.
    package var supportsLiveActivities: Bool
    /// The device-wide switch; off → `denied`.
    package var liveActivitiesEnabled: Bool

    package init(supportsLiveActivities: Bool = true, liveActivitiesEnabled: Bool = true) {
        self.supportsLiveActivities = supportsLiveActivities
        self.liveActivitiesEnabled = liveActivitiesEnabled
    }
}

/// An installed app as the activity engine sees it.
package struct InstalledApp: Sendable, Hashable, Codable {
    /// The `ActivityAttributes` type names the app's widget extension configures.
    package var attributeTypes: Set<String>
    /// `NSSupportsLiveActivitiesFrequentUpdates` in its Info.plist.
    package var supportsFrequentUpdates: Bool
    /// The user's per-app Live Activities switch (`areActivitiesEnabled`).
    package var activitiesEnabled: Bool
    /// The user's "More Frequent Updates" switch (`frequentPushesEnabled` when supported).
    package var frequentUpdatesEnabled: Bool

    package init(
        attributeTypes: Set<String>, supportsFrequentUpdates: Bool = false,
        activitiesEnabled: Bool = true, frequentUpdatesEnabled: Bool = true
    ) {
        self.attributeTypes = attributeTypes
        self.supportsFrequentUpdates = supportsFrequentUpdates
        self.activitiesEnabled = activitiesEnabled
        self.frequentUpdatesEnabled = frequentUpdatesEnabled
    }

    /// ActivityKit's `frequentPushesEnabled`: declared by the app and left on by the user.
    package var frequentPushesEnabled: Bool { supportsFrequentUpdates && frequentUpdatesEnabled }
}

/// ActivityKit's `ActivityAuthorizationInfo` (S19) for one app.
package struct ActivityAuthorizationInfo: Sendable, Hashable {
    package var areActivitiesEnabled: Bool
    package var frequentPushesEnabled: Bool
}
