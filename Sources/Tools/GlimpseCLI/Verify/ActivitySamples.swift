#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine
import GlimpseJSON
import GlimpseMessages

/// An example of what an app starts a Live Activity with: its attributes type, the
/// encoded attributes and one content state, as JSON (dates as seconds since 2001).
package struct ActivitySample: Sendable, Hashable {
    /// Where it came from: the file, and the item's index in an array.
    package var source: String
    package var attributesType: String
    package var attributesJSON: String
    package var stateJSON: String

    package init(source: String, attributesType: String, attributesJSON: String, stateJSON: String) {
        self.source = source
        self.attributesType = attributesType
        self.attributesJSON = attributesJSON
        self.stateJSON = stateJSON
    }
}

/// Sample files for `glimpse verify --activity`: what an app's code would send.
///
/// - a `glimpse.activity.v1.RequestActivityRequest` (proto3 JSON, as `glimpse app
///   request-activity` and `Demos/device.json` take it), or an array of them; a string
///   "$now", "$now+30m" in the attributes or the state is that instant of the verify run in
///   seconds since 2001, as JSONEncoder writes a Date;
/// - an APNs Live Activity body (`{"aps": {"event": "start", "attributes-type": …,
///   "attributes": …, "content-state": …}}`), checked as glimpse-activity's APNs endpoint
///   checks it; without `attributes-type` it is taken for the manifest's only type.
/// Why a sample file gave no samples.
struct SampleProblem: Error, Hashable, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}

enum ActivitySamples {
    /// The samples in `bytes`, or why there are none (a finding's message).
    static func parse(
        _ bytes: [UInt8], source: String, now: Date, declaredTypes: [String], pushPayloadLimit: Int
    ) -> Result<[ActivitySample], SampleProblem> {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { return .failure(SampleProblem("not JSON: \(error)")) }
        if value["aps"] != nil {
            return push(bytes, source: source, declaredTypes: declaredTypes, payloadLimit: pushPayloadLimit).map {
                [$0]
            }
        }
        let items: [(String, JSONValue)]
        switch value {
        case .array(let array): items = array.enumerated().map { ("\(source)[\($0.offset)]", $0.element) }
        case .object: items = [(source, value)]
        default:
            return .failure(
                SampleProblem(
                    "expected a RequestActivityRequest object, an array of them, or an APNs body with \"aps\""))
        }
        var samples: [ActivitySample] = []
        for (name, item) in items {
            let request: GlimpseActivityV1.RequestActivityRequest
            do {
                request = try GlimpseActivityV1.RequestActivityRequest(
                    jsonBytes: DemoDevice.fill(item, now: now).serialized())
            } catch {
                return .failure(SampleProblem("\(name): not a glimpse.activity.v1.RequestActivityRequest: \(error)"))
            }
            samples.append(
                ActivitySample(
                    source: name, attributesType: request.attributesType, attributesJSON: request.attributesJson,
                    stateJSON: request.content?.stateJson ?? ""))
        }
        return .success(samples)
    }

    /// An APNs body through the activity engine's own parser (size, JSON, `aps` keys).
    static func push(
        _ bytes: [UInt8], source: String, declaredTypes: [String], payloadLimit: Int
    ) -> Result<ActivitySample, SampleProblem> {
        let push: LiveActivityPush
        do { push = try LiveActivityPush.parse(bytes, payloadLimit: payloadLimit) } catch {
            return .failure(
                SampleProblem(
                    "glimpse-activity's APNs endpoint refuses this body (\(error.apnsStatus) \(error.apnsReason)): \(error)"
                ))
        }
        guard let state = push.contentState else {
            return .failure(SampleProblem("the APNs body has no aps.content-state"))
        }
        let type: String
        if let named = push.attributesType {
            type = named
        } else if declaredTypes.count == 1 {
            type = declaredTypes[0]
        } else {
            return .failure(
                SampleProblem(
                    "the APNs body has no aps.attributes-type and the manifest declares \(declaredTypes.count) types"))
        }
        return .success(
            ActivitySample(
                source: source, attributesType: type,
                attributesJSON: String(decoding: (push.attributes ?? .empty).bytes, as: UTF8.self),
                stateJSON: String(decoding: state.bytes, as: UTF8.self)))
    }

    /// Strings in `value` that are ISO 8601 dates (`2026-11-24T15:00:00Z`): a `Date` the
    /// default JSONDecoder cannot decode. Each with its path and the number it should be.
    static func isoDates(
        in value: JSONValue, path: String = ""
    ) -> [(path: String, text: String, secondsSince2001: Double)] {
        switch value {
        case .string(let text):
            guard text.utf8.count >= 10, text.first?.isNumber == true, let stamp = try? ISO8601Text.parse(text) else {
                return []
            }
            let date = Date(timeIntervalSince1970: Double(stamp.seconds) + Double(stamp.nanos) / 1e9)
            return [(path.isEmpty ? "(the value)" : path, text, date.timeIntervalSinceReferenceDate)]
        case .array(let items):
            return items.enumerated().flatMap { isoDates(in: $0.element, path: "\(path)[\($0.offset)]") }
        case .object(let members):
            return members.flatMap { isoDates(in: $0.value, path: path.isEmpty ? $0.key : "\(path).\($0.key)") }
        default:
            return []
        }
    }
}
