#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// The HTTP/2 request headers of a Live Activity push (S13, spec §5), checked.
/// Invariant: `priority` is 5 or 10; `app` comes from a topic ending in
/// `.push-type.liveactivity`.
package struct LiveActivityPushHeaders: Sendable, Hashable {
    package static let topicSuffix = ".push-type.liveactivity"

    package var app: AppID
    package var priority: Int
    /// `apns-channel-id` on a broadcast push.
    package var channelID: ChannelID?
    package var apnsID: String?
    /// A broadcast on a channel with message storage policy 1: the channel keeps it for
    /// activities that subscribe later (`ActivitySettings.broadcastStorageDuration`).
    package var storesMessage: Bool

    package init(
        app: AppID, priority: Int = 10, channelID: ChannelID? = nil, apnsID: String? = nil, storesMessage: Bool = false
    ) {
        self.app = app
        self.priority = priority
        self.channelID = channelID
        self.apnsID = apnsID
        self.storesMessage = storesMessage
    }

    /// Whether the push counts against the hourly budget (priority 10, the default).
    package var isBudgeted: Bool { priority == 10 }

    /// Checks `apns-push-type: liveactivity`, `apns-topic: <bundleID>.push-type.liveactivity`
    /// and `apns-priority: 5|10` (absent = 10). Header names are case-insensitive;
    /// a repeated header is refused.
    package static func validate(_ headers: [(name: String, value: String)]) -> Result<Self, PushHeaderError> {
        var seen: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            guard key.hasPrefix("apns-") else { continue }
            guard seen[key] == nil else { return .failure(.duplicateHeaders(key)) }
            seen[key] = value
        }
        guard let pushType = seen["apns-push-type"] else { return .failure(.missingPushType) }
        guard pushType == "liveactivity" else { return .failure(.invalidPushType(pushType)) }
        guard let topic = seen["apns-topic"] else { return .failure(.missingTopic) }
        guard topic.hasSuffix(topicSuffix), topic.count > topicSuffix.count else { return .failure(.badTopic(topic)) }
        let bundle = String(topic.dropLast(topicSuffix.count))
        var priority = 10
        if let text = seen["apns-priority"] {
            guard let p = Int(text), p == 5 || p == 10 else { return .failure(.badPriority(text)) }
            priority = p
        }
        return .success(
            Self(
                app: AppID(bundle), priority: priority,
                channelID: seen["apns-channel-id"].map(ChannelID.init), apnsID: seen["apns-id"]))
    }
}

/// A header the push cannot go through with; reasons are APNs's own.
package enum PushHeaderError: Error, Sendable, Hashable, CustomStringConvertible {
    case missingPushType
    case invalidPushType(String)
    case missingTopic
    case badTopic(String)
    case badPriority(String)
    case duplicateHeaders(String)

    package var apnsStatus: Int { 400 }

    package var apnsReason: String {
        switch self {
        case .missingPushType, .invalidPushType: "InvalidPushType"
        case .missingTopic: "MissingTopic"
        case .badTopic: "BadTopic"
        case .badPriority: "BadPriority"
        case .duplicateHeaders: "DuplicateHeaders"
        }
    }

    package var description: String {
        switch self {
        case .missingPushType: "apns-push-type is required and must be liveactivity"
        case .invalidPushType(let t): "apns-push-type is \"\(t)\"; a Live Activity push needs liveactivity"
        case .missingTopic: "apns-topic is required: <bundleID>.push-type.liveactivity"
        case .badTopic(let t): "apns-topic \"\(t)\" must be <bundleID>.push-type.liveactivity"
        case .badPriority(let p): "apns-priority \"\(p)\" must be 5 or 10"
        case .duplicateHeaders(let h): "\(h) appears more than once"
        }
    }
}
