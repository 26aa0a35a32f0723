#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import ActivityEngine
import EngineTesting
import GlimpseJSON
import GlimpseVocabulary

@Suite("APNs Live Activity payload (spec §5)")
struct PushPayloadTests {
    let t = Date(timeIntervalSince1970: 1_767_225_600)

    @Test("an update parses: UNIX-seconds dates, content-state re-encoded compactly, alert, relevance")
    func parsesUpdate() throws {
        let body = bytes(
            """
            {"aps": {"timestamp": 1767225600, "event": "update",
                     "content-state": { "driverName" : "John", "eta": 60 },
                     "stale-date": 1767226200, "relevance-score": 75.5,
                     "alert": {"title": "Driver changed", "body": "John is on the way", "sound": "chime.aiff"}}}
            """)
        let push = try LiveActivityPush.parse(body)
        #expect(push.event == .update)
        #expect(push.timestamp == t)
        #expect(push.staleDate == t + 600)
        #expect(push.relevanceScore == 75.5)
        #expect(push.contentState?.bytes == bytes(#"{"driverName":"John","eta":60}"#))
        #expect(
            push.alert
                == PushAlert(title: .plain("Driver changed"), body: .plain("John is on the way"), sound: "chime.aiff"))
    }

    @Test(
        "alert and attributes (and attributes-type, content-state) are required for start",
        arguments: ["alert", "attributes", "attributes-type", "content-state"])
    func startRequirements(missing: String) {
        let full: [(String, JSONValue?)] = [
            ("timestamp", seconds(t)), ("event", "start"), ("content-state", ["driverName": "Tim"]),
            ("attributes-type", "PizzaDeliveryAttributes"), ("attributes", ["numberOfPizzas": 1]),
            ("alert", ["title": "Order placed", "body": "On its way"]),
        ]
        #expect((try? LiveActivityPush.parse(pushBody(full))) != nil)
        let body = pushBody(full.filter { $0.0 != missing })
        #expect(throws: PushPayloadError.missingField("aps.\(missing)")) { try LiveActivityPush.parse(body) }
    }

    @Test(
        "dates must be UNIX seconds: strings, negatives and milliseconds are bad dates",
        arguments: [
            ("timestamp", JSONValue.string("2026-01-01T00:00:00Z")), ("timestamp", .number(-5)),
            ("timestamp", .number(1_767_225_600_000)), ("stale-date", .string("soon")),
            ("stale-date", .number(1_767_225_600_000)),
        ])
    func badDates(key: String, value: JSONValue) {
        var aps: [(String, JSONValue?)] = [("timestamp", seconds(t)), ("event", "update"), ("content-state", ["a": 1])]
        aps.removeAll { $0.0 == key }
        aps.append((key, value))
        #expect {
            try LiveActivityPush.parse(pushBody(aps))
        } throws: { error in
            guard case .badDate(let field, _) = error as? PushPayloadError else { return false }
            return field == "aps.\(key)"
        }
    }

    @Test("a body over 4,096 bytes is refused as PayloadTooLarge (413); 4,096 is accepted", arguments: [4096, 4097])
    func payloadSize(size: Int) throws {
        let skeleton = updateBody(at: t, state: ["d": ""]).count
        let body = updateBody(at: t, state: ["d": .string(String(repeating: "x", count: size - skeleton))])
        #expect(body.count == size)
        if size <= 4096 {
            #expect(throws: Never.self) { try LiveActivityPush.parse(body) }
        } else {
            #expect(throws: PushPayloadError.payloadTooLarge(size: 4097, limit: 4096)) {
                try LiveActivityPush.parse(body)
            }
            #expect(PushPayloadError.payloadTooLarge(size: 4097, limit: 4096).apnsStatus == 413)
        }
    }

    @Test(
        "structural errors name what is wrong",
        arguments: [
            (#"{"x": 1}"#, PushPayloadError.missingAps),
            (#"{"aps": {"event": "update", "content-state": {}}}"#, .missingField("aps.timestamp")),
            (#"{"aps": {"timestamp": 1, "content-state": {}}}"#, .missingField("aps.event")),
            (#"{"aps": {"timestamp": 1, "event": "pause"}}"#, .unknownEvent("pause")),
            (#"{"aps": {"timestamp": 1, "event": "update"}}"#, .missingField("aps.content-state")),
            (
                #"{"aps": {"timestamp": 1, "event": "update", "content-state": [1]}}"#,
                .invalidField("aps.content-state", reason: "expected a JSON object")
            ),
            ("", .payloadEmpty),
        ])
    func structuralErrors(text: String, expected: PushPayloadError) {
        #expect(throws: expected) { try LiveActivityPush.parse(bytes(text)) }
    }

    @Test("an end needs no content state; dismissal-date is read only on end")
    func endEvent() throws {
        let end = try LiveActivityPush.parse(endBody(at: t, dismissalDate: t + 60))
        #expect(end.contentState == nil)
        #expect(end.dismissalDate == t + 60)
        let update = try LiveActivityPush.parse(
            pushBody([
                ("timestamp", seconds(t)), ("event", "update"),
                ("content-state", ["a": 1]), ("dismissal-date", seconds(t)),
            ]))
        #expect(update.dismissalDate == nil)
    }

    @Test("localized alert texts: loc-key/loc-args objects and the flat title-loc-key form")
    func localizedAlert() throws {
        let body = bytes(
            #"{"aps":{"timestamp":1,"event":"update","content-state":{},"alert":{"title":{"loc-key":"DRIVER","loc-args":["John"]},"loc-key":"ETA","loc-args":[60]}}}"#
        )
        let alert = try #require(try LiveActivityPush.parse(body).alert)
        #expect(alert.title == .localized(key: "DRIVER", arguments: ["John"]))
        #expect(alert.body == .localized(key: "ETA", arguments: ["60"]))
    }
}
