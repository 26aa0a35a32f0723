import GlimpseJSON
import GlimpseVocabulary
/// What the device knows about Live Activities, set by the gateway (the device's
/// settings screen) and read by every request.
public struct DeviceSettings: Sendable, Hashable, Codable {
    /// False on a device without Live Activity support → `unsupported`.
    public var supportsLiveActivities: Bool
    /// The device-wide switch; off → `denied`.
    public var liveActivitiesEnabled: Bool

    public init(supportsLiveActivities: Bool = true, liveActivitiesEnabled: Bool = true) {
        self.supportsLiveActivities = supportsLiveActivities
        self.liveActivitiesEnabled = liveActivitiesEnabled
    }
}

/// An installed app as the activity engine sees it.
public struct InstalledApp: Sendable, Hashable, Codable {
    /// The `ActivityAttributes` type names the app's widget extension configures.
    public var attributeTypes: Set<String>
    /// `NSSupportsLiveActivitiesFrequentUpdates` in its Info.plist.
    public var supportsFrequentUpdates: Bool
    /// The user's per-app Live Activities switch (`areActivitiesEnabled`).
    public var activitiesEnabled: Bool
    /// The user's "More Frequent Updates" switch (`frequentPushesEnabled` when supported).
    public var frequentUpdatesEnabled: Bool

    public init(attributeTypes: Set<String>, supportsFrequentUpdates: Bool = false,
                activitiesEnabled: Bool = true, frequentUpdatesEnabled: Bool = true) {
        self.attributeTypes = attributeTypes
        self.supportsFrequentUpdates = supportsFrequentUpdates
        self.activitiesEnabled = activitiesEnabled
        self.frequentUpdatesEnabled = frequentUpdatesEnabled
    }

    /// ActivityKit's `frequentPushesEnabled`: declared by the app and left on by the user.
    public var frequentPushesEnabled: Bool { supportsFrequentUpdates && frequentUpdatesEnabled }
}

/// ActivityKit's `ActivityAuthorizationInfo` (S19) for one app.
public struct ActivityAuthorizationInfo: Sendable, Hashable {
    public var areActivitiesEnabled: Bool
    public var frequentPushesEnabled: Bool
}
