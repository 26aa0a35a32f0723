@testable import GatewayService
import GlimpseMessages
import Testing

/// A tap's or a reload's wait for the provider's answer (`DeviceState.Condition.answered`)
/// goes on for a change glimpse-timeline marks as an answer, and only for one.
@Suite struct AnswerWaitTests {
    static func change(
        _ id: UInt64, content: String? = nil, answer: Bool = false, reload: Bool = false, unchanged: Bool = false,
        failed: Bool = false
    ) -> GlimpseTimelineV1.EntryChange {
        var change = GlimpseTimelineV1.EntryChange()
        change.placementId = id
        change.answer = answer
        change.unchanged = unchanged
        if let content {
            var entry = GlimpseWidgetV1.TimelineEntry()
            entry.widgetUrl = content
            change.entry = entry
        }
        if reload { change.reload = GlimpseTimelineV1.ReloadStarted() }
        if failed {
            var error = GlimpseTimelineV1.ProviderError()
            error.code = "UNAVAILABLE"
            change.providerError = error
        }
        return change
    }

    static func received(_ device: DeviceState, _ change: GlimpseTimelineV1.EntryChange) async {
        _ = await device.entryChanged(change)
        await device.streamed(change)
    }

    @Test func anEntryThatCameDueWhileTheCallIsOutIsNotItsAnswer() async throws {
        let device = try DeviceState(store: .inMemory())
        await Self.received(device, Self.change(1, content: "first", answer: true))
        let before = await device.timelineChanges
        await Self.received(device, Self.change(1, reload: true))
        // The clock brings the timeline's next entry; the provider has not answered yet.
        await Self.received(device, Self.change(1, content: "second"))
        #expect(!(await device.wait(for: .answered(1, after: before), timeout: .zero)))
        await Self.received(device, Self.change(1, content: "answer", answer: true))
        #expect(await device.wait(for: .answered(1, after: before), timeout: .zero))
    }

    @Test func theSameEntryAgainOrAFailureAnswerToo() async throws {
        let device = try DeviceState(store: .inMemory())
        var before = await device.timelineChanges
        await Self.received(device, Self.change(1, reload: true))
        #expect(!(await device.wait(for: .answered(1, after: before), timeout: .zero)))
        await Self.received(device, Self.change(1, answer: true, unchanged: true))
        #expect(await device.wait(for: .answered(1, after: before), timeout: .zero))
        before = await device.timelineChanges
        await Self.received(device, Self.change(1, reload: true))
        await Self.received(device, Self.change(1, answer: true, failed: true))
        #expect(await device.wait(for: .answered(1, after: before), timeout: .zero))
        // Another placement's answer is not this one's.
        before = await device.timelineChanges
        await Self.received(device, Self.change(2, content: "other", answer: true))
        #expect(!(await device.wait(for: .answered(1, after: before), timeout: .zero)))
        #expect(await device.wait(for: .provided(2), timeout: .zero))
    }
}
