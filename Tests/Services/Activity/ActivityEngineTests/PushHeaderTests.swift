import Testing
@testable import ActivityEngine
import EngineTesting
import GlimpseJSON
import GlimpseVocabulary

@Suite("APNs headers (spec §5)")
struct PushHeaderTests {
    typealias H = [(name: String, value: String)]

    @Test("apns-push-type liveactivity, apns-topic <bundleID>.push-type.liveactivity, apns-priority 5|10")
    func valid() throws {
        let headers: H = [
            ("apns-push-type", "liveactivity"), ("APNS-Topic", "com.example.pizza.push-type.liveactivity"),
            ("apns-priority", "5"),
        ]
        let checked = try LiveActivityPushHeaders.validate(headers).get()
        #expect(checked.app == "com.example.pizza")
        #expect(checked.priority == 5)
        #expect(!checked.isBudgeted)
    }

    @Test("a missing priority means 10, which counts against the budget")
    func defaultPriority() throws {
        let checked = try LiveActivityPushHeaders.validate([
            ("apns-push-type", "liveactivity"),
            ("apns-topic", "a.b.push-type.liveactivity"),
        ]).get()
        #expect(checked.priority == 10)
        #expect(checked.isBudgeted)
    }

    @Test(
        "each bad header is refused with APNs's reason",
        arguments: [
            ([("apns-topic", "a.push-type.liveactivity")], "InvalidPushType"),
            ([("apns-push-type", "alert"), ("apns-topic", "a.push-type.liveactivity")], "InvalidPushType"),
            ([("apns-push-type", "liveactivity")], "MissingTopic"),
            ([("apns-push-type", "liveactivity"), ("apns-topic", "com.example.pizza")], "BadTopic"),
            ([("apns-push-type", "liveactivity"), ("apns-topic", ".push-type.liveactivity")], "BadTopic"),
            (
                [
                    ("apns-push-type", "liveactivity"), ("apns-topic", "a.push-type.liveactivity"),
                    ("apns-priority", "1"),
                ], "BadPriority"
            ),
            (
                [
                    ("apns-push-type", "liveactivity"), ("apns-push-type", "liveactivity"),
                    ("apns-topic", "a.push-type.liveactivity"),
                ], "DuplicateHeaders"
            ),
        ] as [([(String, String)], String)])
    func refusals(headers: [(String, String)], reason: String) {
        let result = LiveActivityPushHeaders.validate(headers.map { (name: $0.0, value: $0.1) })
        guard case .failure(let error) = result else {
            Issue.record("accepted \(headers)")
            return
        }
        #expect(error.apnsReason == reason)
        #expect(error.apnsStatus == 400)
    }
}
