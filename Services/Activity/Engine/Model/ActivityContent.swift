#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseJSON
package import GlimpseVocabulary

/// ActivityKit's `ActivityContent` (S17): the dynamic part of an activity.
package struct ActivityContent: Sendable, Hashable, Codable {
    /// The encoded `ContentState`.
    package var state: JSONObjectBytes
    /// When the content goes out of date (the activity becomes `stale`).
    package var staleDate: Date?
    /// Relative importance for the Dynamic Island and Lock Screen order (default 0).
    package var relevanceScore: Double

    package init(state: JSONObjectBytes, staleDate: Date? = nil, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// The static part: the `ActivityAttributes` type's name and its encoded value.
package struct ActivityAttributesPayload: Sendable, Hashable, Codable {
    /// The Swift type's name, as `attributes-type` names it in a push (e.g.
    /// `PizzaDeliveryAttributes`).
    package var typeName: String
    package var value: JSONObjectBytes

    package init(typeName: String, value: JSONObjectBytes) {
        self.typeName = typeName
        self.value = value
    }
}

/// ActivityKit's `AlertConfiguration`: an update that lights the device.
package struct AlertConfiguration: Sendable, Hashable, Codable {
    package var title: String
    package var body: String
    package var sound: String?

    package init(title: String, body: String, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}

/// ActivityKit's `PushType` (S22): one of the two, or none (local updates only).
package enum PushType: Sendable, Hashable, Codable {
    case token
    case channel(ChannelID)
}

/// Who is asking for a new activity; decides the `visibility` rule (spec §4).
package enum RequestOrigin: Sendable, Hashable {
    case app(isForeground: Bool)
    /// A `LiveActivityIntent` running in the app's process.
    case liveActivityIntent
    /// A push-to-start notification.
    case pushToStart
}
