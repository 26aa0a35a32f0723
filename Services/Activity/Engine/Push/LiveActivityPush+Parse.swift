#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

extension LiveActivityPush {
    /// Dates above this many seconds since 1970 (year 5138) are taken for milliseconds.
    static let millisecondsThreshold = 1e11

    /// Parses and checks an APNs body. Size first (nothing larger than `payloadLimit`
    /// is even parsed), then JSON, then the `aps` keys and the per-event rules.
    package static func parse(_ body: [UInt8], payloadLimit: Int = 4096) throws(PushPayloadError) -> LiveActivityPush {
        guard !body.isEmpty else { throw .payloadEmpty }
        guard body.count <= payloadLimit else { throw .payloadTooLarge(size: body.count, limit: payloadLimit) }
        let root: JSONValue
        do { root = try JSONParser.parse(body) } catch { throw .malformedJSON(error.description) }
        guard let aps = root["aps"], aps.isObject else { throw .missingAps }

        guard let eventValue = aps["event"] else { throw .missingField("aps.event") }
        guard let eventName = eventValue.stringValue else {
            throw .invalidField("aps.event", reason: "expected a string")
        }
        guard let event = Event(rawValue: eventName) else { throw .unknownEvent(eventName) }
        guard let timestamp = try date(aps, "timestamp") else { throw .missingField("aps.timestamp") }

        var push = LiveActivityPush(event: event, timestamp: timestamp)
        push.contentState = try object(aps, "content-state")
        push.staleDate = try date(aps, "stale-date")
        push.dismissalDate = event == .end ? try date(aps, "dismissal-date") : nil
        if let score = aps["relevance-score"] {
            guard let value = score.doubleValue, value.isFinite else {
                throw .invalidField("aps.relevance-score", reason: "expected a number")
            }
            push.relevanceScore = value
        }
        if let alert = aps["alert"] { push.alert = try parseAlert(alert) }
        if let type = aps["attributes-type"] {
            guard let name = type.stringValue, !name.isEmpty else {
                throw .invalidField("aps.attributes-type", reason: "expected the attributes type's name")
            }
            push.attributesType = name
        }
        push.attributes = try object(aps, "attributes")
        if let input = aps["input-push-token"] {
            guard input.doubleValue == 1 || input == .bool(true) else {
                throw .invalidField("aps.input-push-token", reason: "expected 1")
            }
            push.inputPushToken = true
        }
        if let channel = aps["input-push-channel"] {
            guard let id = channel.stringValue, !id.isEmpty else {
                throw .invalidField("aps.input-push-channel", reason: "expected a channel id")
            }
            push.inputPushChannel = ChannelID(id)
        }
        try push.checkEventRules()
        return push
    }

    func checkEventRules() throws(PushPayloadError) {
        switch event {
        case .update:
            guard contentState != nil else { throw .missingField("aps.content-state") }
        case .start:
            guard contentState != nil else { throw .missingField("aps.content-state") }
            guard alert != nil else { throw .missingField("aps.alert") }
            guard attributesType != nil else { throw .missingField("aps.attributes-type") }
            guard attributes != nil else { throw .missingField("aps.attributes") }
        case .end:
            break  // a final content state is recommended, not required
        }
    }

    static func date(_ aps: JSONValue, _ key: String) throws(PushPayloadError) -> Date? {
        guard let value = aps[key] else { return nil }
        guard case .number = value, let seconds = value.doubleValue, seconds.isFinite else {
            throw .badDate("aps.\(key)", reason: "expected a number of seconds since 1970")
        }
        guard seconds >= 0 else { throw .badDate("aps.\(key)", reason: "negative") }
        guard seconds < millisecondsThreshold else {
            throw .badDate("aps.\(key)", reason: "\(seconds) looks like milliseconds")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `aps[key]`, an object: `aps` is part of the body `JSONParser` parsed.
    static func object(_ aps: JSONValue, _ key: String) throws(PushPayloadError) -> JSONObjectBytes? {
        guard let value = aps[key] else { return nil }
        do { return try JSONObjectBytes(parsed: value) } catch {
            throw .invalidField("aps.\(key)", reason: "expected a JSON object")
        }
    }

    static func parseAlert(_ value: JSONValue) throws(PushPayloadError) -> PushAlert {
        if let plain = value.stringValue { return PushAlert(body: .plain(plain)) }
        guard value.isObject else { throw .invalidField("aps.alert", reason: "expected an object or a string") }
        var alert = PushAlert()
        alert.title = try text(value, "title", locKey: "title-loc-key", locArgs: "title-loc-args")
        alert.subtitle = try text(value, "subtitle", locKey: "subtitle-loc-key", locArgs: "subtitle-loc-args")
        alert.body = try text(value, "body", locKey: "loc-key", locArgs: "loc-args")
        if let sound = value["sound"] {
            if let name = sound.stringValue {
                alert.sound = name
            } else if let name = sound["name"]?.stringValue {
                alert.sound = name
            } else {
                throw .invalidField("aps.alert.sound", reason: "expected a name or {\"name\": …}")
            }
        }
        return alert
    }

    /// A text given as `key: "…"`, `key: {"loc-key", "loc-args"}`, or the flat
    /// `…-loc-key`/`…-loc-args` pair of an ordinary alert.
    static func text(
        _ alert: JSONValue, _ key: String, locKey: String, locArgs: String
    ) throws(PushPayloadError) -> PushAlert.Text? {
        if let value = alert[key] {
            if let s = value.stringValue { return .plain(s) }
            if let k = value["loc-key"]?.stringValue {
                return .localized(key: k, arguments: try strings(value["loc-args"], "aps.alert.\(key).loc-args"))
            }
            throw .invalidField("aps.alert.\(key)", reason: "expected a string or {\"loc-key\", \"loc-args\"}")
        }
        if let k = alert[locKey] {
            guard let keyText = k.stringValue else {
                throw .invalidField("aps.alert.\(locKey)", reason: "expected a string")
            }
            return .localized(key: keyText, arguments: try strings(alert[locArgs], "aps.alert.\(locArgs)"))
        }
        return nil
    }

    static func strings(_ value: JSONValue?, _ field: String) throws(PushPayloadError) -> [String] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw .invalidField(field, reason: "expected an array of strings") }
        var out: [String] = []
        for item in items {
            switch item {
            case .string(let s): out.append(s)
            case .number(let n): out.append(n)
            default: throw .invalidField(field, reason: "expected an array of strings")
            }
        }
        return out
    }
}
