import Foundation
import GlimpseMessages
import Rendering
import Testing

/// Timers, dates and progress by interval read the injected device clock: advancing `now`
/// changes what shows.
@Suite struct TimeTests {
    func interval(_ start: Date, _ end: Date) -> GlimpseWidgetV1.DateInterval {
        GlimpseWidgetV1.DateInterval(start: timestamp(start), end: timestamp(end))
    }

    func timer(_ start: Date, _ end: Date, countsDown: Bool) -> View {
        var v = View()
        v.kind = .timerText(GlimpseWidgetV1.TimerText(timerInterval: interval(start, end), countsDown: countsDown))
        return v
    }

    @Test func countdownTextChangesAsTheClockAdvances() {
        let view = timer(t0.addingTimeInterval(-60), t0.addingTimeInterval(754), countsDown: true)
        let before = renderer(now: t0).view(view, family: .systemSmall).tree.first { $0.kind == "timerText" }!
        let after = renderer(now: t0.addingTimeInterval(64)).view(view, family: .systemSmall).tree.first {
            $0.kind == "timerText"
        }!
        #expect(before.text == "12:34")
        #expect(after.text == "11:30")
        let done = renderer(now: t0.addingTimeInterval(10_000)).view(view, family: .systemSmall).tree.first {
            $0.kind == "timerText"
        }!
        #expect(done.text == "0:00")
    }

    @Test func countUpShowsHours() {
        let view = timer(t0.addingTimeInterval(-3723), t0.addingTimeInterval(10_000), countsDown: false)
        let node = renderer().view(view, family: .systemSmall).tree.first { $0.kind == "timerText" }!
        #expect(node.text == "1:02:03")
    }

    @Test func timerTextTakesTheWholeProposedWidth() {
        let view = timer(t0, t0.addingTimeInterval(600), countsDown: true)
        let node = renderer().view(view, family: .systemSmall).tree.first { $0.kind == "timerText" }!
        #expect(node.width == 126)
    }

    /// Seed 002's Lock Screen row: dashes, a truck, the timer, dashes, a house, all sharing
    /// one HStack. The timer keeps its one line ("30:00", not "30:" over "00").
    @Test func timerTextInACrowdedRowStaysOnOneLine() {
        let row = hstack([
            rectangle().with(frame(height: 6)), symbol("box.truck.badge.clock.fill"),
            rectangle().with(frame(height: 6)), timer(t0, t0.addingTimeInterval(1800), countsDown: true),
            rectangle().with(frame(height: 6)), symbol("house.fill"),
        ])
        let node = renderer().view(row, family: .systemSmall).tree.first { $0.kind == "timerText" }!
        #expect(node.text == "30:00")
        #expect(node.lineCount == 1)
    }

    @Test func progressByTimerIntervalFollowsTheClock() {
        var p = GlimpseWidgetV1.ProgressView()
        p.progress = .timerInterval(interval(t0.addingTimeInterval(-25), t0.addingTimeInterval(75)))
        var view = View()
        view.kind = .progress(p)
        let quarter = renderer(now: t0).view(view, family: .systemSmall).tree.first { $0.kind == "progress" }!
        let half = renderer(now: t0.addingTimeInterval(25)).view(view, family: .systemSmall).tree.first {
            $0.kind == "progress"
        }!
        #expect(near(quarter.value, 0.25))
        #expect(near(half.value, 0.5))
        let bar = renderer(now: t0).view(view, family: .systemSmall).tree.first { $0.kind == "bar" }!
        #expect(near(bar.value, 0.25) && bar.width == 126)
    }

    @Test func progressByValue() {
        var p = GlimpseWidgetV1.ProgressView()
        p.progress = .fraction(.init(value: 3, total: 4))
        var view = View()
        view.kind = .progress(p)
        #expect(renderer().view(view, family: .systemSmall).tree.first { $0.kind == "progress" }!.value == 0.75)
    }

    func dateText(_ date: Date, _ style: GlimpseWidgetV1.DateTextStyle) -> String {
        var v = View()
        v.kind = .dateText(GlimpseWidgetV1.DateText(date: timestamp(date), style: style))
        return renderer().view(v, family: .systemMedium).tree.first { $0.kind == "dateText" }!.text
    }

    @Test func dateStyles() {
        #expect(dateText(t0, .time) == "10:42 AM")
        #expect(dateText(t0, .date) == "November 24, 2026")
        #expect(dateText(t0.addingTimeInterval(2 * 3600 + 5 * 60), .relative) == "2 hr, 5 min")
        #expect(dateText(t0.addingTimeInterval(2 * 3600), .offset) == "+2 hours")
        #expect(dateText(t0.addingTimeInterval(-5 * 60), .offset) == "-5 minutes")
        #expect(dateText(t0.addingTimeInterval(90), .timer) == "1:30")
    }

    @Test func gaugeValueIsTheFractionBetweenMinimumAndMaximum() {
        var g = GlimpseWidgetV1.Gauge()
        g.value = 30
        g.minimum = 20
        g.maximum = 60
        g.style = .accessoryCircular
        g.currentValueLabel = text("30")
        var view = View()
        view.kind = .gauge(g)
        let tree = renderer().view(view, family: .accessoryCircular).tree
        #expect(near(tree.first { $0.kind == "gauge" }!.value, 0.25))
        // .accessoryCircular is the open ring with a marker (the capacity style is the closed one).
        let ring = tree.first { $0.kind == "arc" }!
        #expect(ring.width == 72 && ring.height == 72)
        #expect(tree.first { $0.kind == "ring" } == nil)
        let label = tree.node(text: "30")!
        #expect(label.x > ring.x && label.maxX < ring.maxX)
    }

    @Test func theCapacityGaugeIsTheClosedRing() {
        var g = GlimpseWidgetV1.Gauge()
        g.value = 0.5
        g.style = .accessoryCircularCapacity
        var view = View()
        view.kind = .gauge(g)
        let tree = renderer().view(view, family: .accessoryCircular).tree
        #expect(tree.first { $0.kind == "ring" } != nil && tree.first { $0.kind == "arc" } == nil)
    }
}
