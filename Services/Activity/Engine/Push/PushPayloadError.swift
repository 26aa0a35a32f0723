import GlimpseJSON
import GlimpseVocabulary
/// Why an APNs Live Activity body was refused, in terms a push server can act on.
/// `apnsReason` uses APNs's own reason strings where APNs has one (`PayloadTooLarge`,
/// `PayloadEmpty`); the rest are Glimpse's, named after the rule they enforce.
package enum PushPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    case payloadEmpty
    case payloadTooLarge(size: Int, limit: Int)
    case malformedJSON(String)
    /// The body has no `aps` object.
    case missingAps
    /// A required key is absent, e.g. `aps.alert` on a start event.
    case missingField(String)
    /// A key holds the wrong JSON type or an unusable value.
    case invalidField(String, reason: String)
    /// A date key is not UNIX seconds (spec §5: timestamps, stale and dismissal dates
    /// are seconds since 1970; milliseconds are refused).
    case badDate(String, reason: String)
    case unknownEvent(String)
    /// `attributes-type` names a type the app does not declare.
    case unknownAttributesType(String)
    /// The encoded content state is over the size limit.
    case contentStateTooLarge(size: Int, limit: Int)

    package var apnsStatus: Int {
        if case .payloadTooLarge = self { return 413 }
        return 400
    }

    package var apnsReason: String {
        switch self {
        case .payloadEmpty: "PayloadEmpty"
        case .payloadTooLarge: "PayloadTooLarge"
        case .malformedJSON: "MalformedPayload"
        case .missingAps: "MissingAps"
        case .missingField: "MissingField"
        case .invalidField: "InvalidField"
        case .badDate: "BadDate"
        case .unknownEvent: "UnknownEvent"
        case .unknownAttributesType: "UnknownAttributesType"
        case .contentStateTooLarge: "ContentStateTooLarge"
        }
    }

    package var description: String {
        switch self {
        case .payloadEmpty: "the body is empty"
        case .payloadTooLarge(let size, let limit): "the body is \(size) bytes; the limit is \(limit)"
        case .malformedJSON(let why): "the body is not JSON: \(why)"
        case .missingAps: "the body has no \"aps\" object"
        case .missingField(let key): "\"\(key)\" is required"
        case .invalidField(let key, let reason): "\"\(key)\": \(reason)"
        case .badDate(let key, let reason): "\"\(key)\" must be UNIX seconds: \(reason)"
        case .unknownEvent(let e): "\"aps.event\" is \"\(e)\"; expected start, update or end"
        case .unknownAttributesType(let t): "the app declares no attributes type \"\(t)\""
        case .contentStateTooLarge(let size, let limit): "content-state is \(size) bytes encoded; the limit is \(limit)"
        }
    }
}
