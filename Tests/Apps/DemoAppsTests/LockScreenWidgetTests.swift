@testable import DemoApps
import GlimpseKit
import Foundation
import GlimpseMessages
import Testing

@Suite struct DailyStepsTests {
    let widget = LockScreenWidget()

    @Test func oneEntryNowThenAgainInFifteenMinutes() async {
        let timeline = await widget.timeline(
            kind: LockScreenWidget.kind, in: .family(.accessoryRectangular), now: start)
        #expect(timeline.entries.count == 1)
        #expect(timeline.entries.first?.date == .init(date: start))
        #expect(timeline.reloadPolicy == .after(.init(date: start.addingTimeInterval(15 * 60))))
    }

    @Test func theCountGrowsThroughTheDay() {
        #expect(DailySteps().steps(at: start) == 120 * 14)  // two hours into the day
        #expect(DailySteps().steps(at: start.addingTimeInterval(15 * 60)) == 135 * 14)
        #expect(DailySteps().steps(at: start.addingTimeInterval(-3 * 3600)) == 0)
    }

    @Test func everyAccessoryFamilyHasItsView() async throws {
        func view(_ family: GlimpseWidgetV1.WidgetFamily) async throws -> GlimpseWidgetV1.View {
            try #require(
                await widget.timeline(kind: LockScreenWidget.kind, in: .family(family), now: start).entries.first?.view)
        }
        let circular = try await view(.accessoryCircular)
        #expect(circular.all.contains { $0.kind == .accessoryWidgetBackground })
        let gauges = circular.all.compactMap { view -> GlimpseWidgetV1.Gauge? in
            if case .gauge(let g)? = view.kind { g } else { nil }
        }
        let gauge = try #require(gauges.first)
        #expect(gauge.value == 1680 && gauge.maximum == 10_000 && gauge.style == .accessoryCircular)
        #expect(circular.texts == ["1k"] && circular.symbols == ["figure.walk"])

        let rectangular = try await view(.accessoryRectangular)
        #expect(rectangular.texts == ["Steps", "1,680 steps"])
        let inline = try await view(.accessoryInline)
        #expect(inline.texts == ["1,680 steps"] && inline.symbols == ["figure.walk"])
        for view in [circular, rectangular, inline] { #expect(view.hasContainerBackground) }
    }

    @Test func thePlaceholderIsTheArticlesSample() {
        let entry = widget.placeholder(kind: LockScreenWidget.kind, in: .family(.accessoryRectangular), now: start)
        #expect(entry.view?.texts == ["Steps", "8,420 steps"])
    }
}

@Suite struct MoviePlannerTests {
    @Test func oneEntryPerMovieAMinuteApartAtEnd() async {
        let timeline = await MoviePlannerWidget().timeline(
            kind: MoviePlannerWidget.kind, in: .family(.systemSmall), now: start)
        #expect(
            timeline.entries.map(\.date) == [0, 1, 2].map { .init(date: start.addingTimeInterval(Double($0) * 60)) })
        #expect(timeline.reloadPolicy == .atEnd)
        #expect(
            timeline.entries.map { $0.view?.texts ?? [] } == [
                ["Avengers: Infinity War"], ["Avengers: End Game"], ["Guardians of the Galaxy Volume 3"],
            ])
        #expect(timeline.entries.map { $0.view?.images ?? [] } == [["infinity"], ["endgame"], ["gog3"]])
    }

    @Test(arguments: [GlimpseWidgetV1.WidgetFamily.systemSmall, .systemMedium, .systemLarge])
    func oneLayoutFitsEverySize(family: GlimpseWidgetV1.WidgetFamily) async throws {
        let view = try #require(
            await MoviePlannerWidget().timeline(kind: MoviePlannerWidget.kind, in: .family(family), now: start).entries
                .first?.view)
        // The poster, the gradient, the title: a ZStack of three layers.
        guard case .stack(let stack)? = view.kind else { Issue.record("not a stack"); return }
        #expect(stack.axis == .depth && stack.children.count == 3)
        #expect(view.all.contains { if case .gradient? = $0.kind { true } else { false } })
    }

    @Test func thePlaceholderHasNoMovie() {
        let entry = MoviePlannerWidget().placeholder(
            kind: MoviePlannerWidget.kind, in: .family(.systemSmall), now: start)
        #expect(entry.view?.texts == [""] && entry.view?.images == [])
    }
}
