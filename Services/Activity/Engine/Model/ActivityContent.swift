#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import GlimpseJSON
public import GlimpseVocabulary

/// ActivityKit's `ActivityContent` (S17): the dynamic part of an activity.
public struct ActivityContent: Sendable, Hashable, Codable {
    /// The encoded `ContentState`.
    public var state: JSONObjectBytes
    /// When the content goes out of date (the activity becomes `stale`).
    public var staleDate: Date?
    /// Relative importance for the Dynamic Island and Lock Screen order (default 0).
    public var relevanceScore: Double

    public init(state: JSONObjectBytes, staleDate: Date? = nil, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// The static part: the `ActivityAttributes` type's name and its encoded value.
public struct ActivityAttributesPayload: Sendable, Hashable, Codable {
    /// The Swift type's name, as `attributes-type` names it in a push (e.g.
    /// `PizzaDeliveryAttributes`).
    public var typeName: String
    public var value: JSONObjectBytes

    public init(typeName: String, value: JSONObjectBytes) {
        self.typeName = typeName
        self.value = value
    }
}

/// ActivityKit's `AlertConfiguration`: an update that lights the device.
public struct AlertConfiguration: Sendable, Hashable, Codable {
    public var title: String
    public var body: String
    public var sound: String?

    public init(title: String, body: String, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}

/// ActivityKit's `PushType` (S22): one of the two, or none (local updates only).
public enum PushType: Sendable, Hashable, Codable {
    case token
    case channel(ChannelID)
}

/// Who is asking for a new activity; decides the `visibility` rule (spec §4).
public enum RequestOrigin: Sendable, Hashable {
    case app(isForeground: Bool)
    /// A `LiveActivityIntent` running in the app's process.
    case liveActivityIntent
    /// A push-to-start notification.
    case pushToStart
}
