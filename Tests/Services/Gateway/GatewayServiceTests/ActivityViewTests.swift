@testable import GatewayService
import GlimpseMessages
import Testing

/// The device's view of its Live Activities comes from two places at once: a Request's
/// answer (through the gateway) and glimpse-activity's WatchActivities (the followers). The
/// stream is as new as the answer or newer, so the answer never takes back what it brought.
@Suite struct ActivityViewTests {
    static func activity(_ id: String, token: String = "") -> GlimpseActivityV1.Activity {
        var activity = GlimpseActivityV1.Activity()
        activity.activityId = id
        activity.bundleId = "com.example.pizza"
        activity.state = .active
        activity.pushToken = token
        return activity
    }

    static func tokenIssued(_ id: String, _ token: String) -> GlimpseActivityV1.ActivityChange {
        var change = GlimpseActivityV1.ActivityChange()
        change.activityId = id
        change.change = .pushToken(.init(pushToken: token, attributesType: "PizzaDeliveryAttributes"))
        return change
    }

    @Test func aRequestsAnswerAfterTheStreamKeepsTheTokenTheStreamBrought() async throws {
        let device = try DeviceState(store: .inMemory())
        // The follower heard of the activity and then of its token before the answer got back.
        await device.setActivity(Self.activity("A1"))
        #expect(await device.activityChanged(Self.tokenIssued("A1", "ab12")))
        await device.learnActivity(Self.activity("A1"))
        #expect(await device.activities["A1"]?.pushToken == "ab12")
    }

    @Test func aRequestsAnswerFirstIsShownUntilTheStreamBringsMore() async throws {
        let device = try DeviceState(store: .inMemory())
        await device.learnActivity(Self.activity("A2"))
        #expect(await device.activities["A2"]?.state == .active)
        #expect(await device.activityChanged(Self.tokenIssued("A2", "cd34")))
        #expect(await device.activities["A2"]?.pushToken == "cd34")
    }
}
