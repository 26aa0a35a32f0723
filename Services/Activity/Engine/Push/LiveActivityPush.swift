#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseJSON
package import GlimpseVocabulary

/// The `aps` dictionary of an APNs Live Activity push (S13, S20; spec §5), parsed and
/// checked. A value of this type always satisfies the per-event rules: `update` and
/// `start` carry a content state; `start` carries `alert`, `attributes-type` and
/// `attributes`; every date is UNIX seconds.
package struct LiveActivityPush: Sendable, Hashable, Codable {
    package enum Event: String, Sendable, Hashable, Codable { case start, update, end }

    package var event: Event
    package var timestamp: Date
    /// Re-encoded compactly; its size is what the 4 KB rule measures.
    package var contentState: JSONObjectBytes?
    package var staleDate: Date?
    /// `end` only; ignored on other events, as a device ignores it.
    package var dismissalDate: Date?
    package var relevanceScore: Double?
    package var alert: PushAlert?
    package var attributesType: String?
    package var attributes: JSONObjectBytes?
    /// `input-push-token: 1` (iOS 18 start): mint an update token for the new activity.
    package var inputPushToken: Bool
    /// `input-push-channel` (iOS 18 start): subscribe the new activity to this channel.
    package var inputPushChannel: ChannelID?

    package init(
        event: Event, timestamp: Date, contentState: JSONObjectBytes? = nil,
        staleDate: Date? = nil, dismissalDate: Date? = nil, relevanceScore: Double? = nil,
        alert: PushAlert? = nil, attributesType: String? = nil, attributes: JSONObjectBytes? = nil,
        inputPushToken: Bool = false, inputPushChannel: ChannelID? = nil
    ) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.alert = alert
        self.attributesType = attributesType
        self.attributes = attributes
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
    }
}

/// The `alert` of a push: title, subtitle and body, each plain text or a localization
/// key with arguments; and the sound's name.
package struct PushAlert: Sendable, Hashable, Codable {
    package enum Text: Sendable, Hashable, Codable {
        case plain(String)
        case localized(key: String, arguments: [String])
        /// The text to show when no localization table is at hand: the key itself.
        package var displayText: String {
            switch self {
            case .plain(let s): s
            case .localized(let key, _): key
            }
        }
    }

    package var title: Text?
    package var subtitle: Text?
    package var body: Text?
    package var sound: String?

    package init(title: Text? = nil, subtitle: Text? = nil, body: Text? = nil, sound: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.sound = sound
    }

    /// As ActivityKit's `AlertConfiguration` (title, body, sound).
    package var configuration: AlertConfiguration {
        AlertConfiguration(title: title?.displayText ?? "", body: body?.displayText ?? "", sound: sound)
    }
}
