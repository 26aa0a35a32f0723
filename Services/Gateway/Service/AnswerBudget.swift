import GlimpseMessages
import ProtoMapping

/// Keeps an answer that lists many apps' content under `ContentLimits.answerBytes`, so that
/// one app's large entries never make an answer about the device fail at a stock client
/// (4 MiB). Content is left out largest first, and the answer says so; the single-item
/// reads (`Widgets.Get`, `Device.Render` of one widget) still carry it.
enum AnswerBudget {
    /// Leaves out the largest widgets' entries (and their elements) until the widgets fit.
    static func fit(_ widgets: inout [GlimpseGatewayV1.Widget], budget: Int = ContentLimits.answerBytes) {
        var sizes = widgets.map(size(of:))
        var total = sizes.reduce(0, +)
        guard total > budget else { return }
        for index in sizes.indices.sorted(by: { sizes[$0] > sizes[$1] }) where total > budget {
            var widget = widgets[index]
            widget.entry = nil
            widget.elements = []
            widget.entryLeftOut = true
            let smaller = size(of: widget)
            total -= sizes[index] - smaller
            sizes[index] = smaller
            widgets[index] = widget
        }
    }

    /// Sends the last entries of `status`'s timeline without their views until it fits.
    static func fit(_ status: inout GlimpseTimelineV1.PlacementStatus, budget: Int = ContentLimits.answerBytes) {
        guard var timeline = status.timeline else { return }
        var total = size(of: status)
        var index = timeline.entries.count - 1
        var leftOut: UInt32 = 0
        while total > budget, index >= 0 {
            let before = size(of: timeline.entries[index])
            timeline.entries[index].view = nil
            total -= before - size(of: timeline.entries[index])
            leftOut += 1
            index -= 1
        }
        if total > budget { status.currentEntry?.view = nil }
        status.timeline = timeline
        status.viewsLeftOut = leftOut
    }

    /// The first events of `events` that fit (at least one, which `ContentLimits.entryBytes`
    /// keeps small): the caller pages on from the last one.
    static func prefix(
        _ events: [GlimpseGatewayV1.Event], budget: Int = ContentLimits.answerBytes
    ) -> [GlimpseGatewayV1.Event] {
        var total = 0
        for (index, event) in events.enumerated() {
            total += size(of: event) + 8
            if total > budget, index > 0 { return Array(events[..<index]) }
        }
        return events
    }

    private static func size(of message: some GlimpseMessage) -> Int {
        (try? message.serializedBytes().count) ?? 0
    }
}
