import Foundation
import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

@Suite("External handlers")
struct HandlerTests {
    @Test("the engine emits \"call the app's handler for intent X with params\", defaults filled in")
    func callEffect() throws {
        let h = IntentHarness()
        try h.executor.install(
            app: "com.example.pixartracker", groups: [],
            intents: [
                IntentDefinition(
                    type: "MarkFilmWatchedIntent", title: "Mark Film as Watched",
                    parameters: [
                        IntentParameter(name: "filmID", type: .string),
                        IntentParameter(name: "filmTitle", type: .string),
                        IntentParameter(name: "rating", type: .int, defaultValue: .int(5)),
                    ], action: .handler, widgetKinds: ["PixarFilmWidget"])
            ])
        h.tap(
            "MarkFilmWatchedIntent", placement: 4, kind: "PixarFilmWidget",
            parameters: ["filmID": .string("coco"), "filmTitle": .string("Coco")], app: "com.example.pixartracker")
        let call = try #require(h.handlerCalls.first)
        #expect(call.app == "com.example.pixartracker")
        #expect(call.intent == "MarkFilmWatchedIntent")
        #expect(call.placement == 4)
        #expect(call.parameters == ["filmID": .string("coco"), "filmTitle": .string("Coco"), "rating": .int(5)])
    }

    @Test("a handler not answering within the timeout fails the tap; its late answer is ignored")
    func timeout() throws {
        let h = try Fixture.harness()
        h.tap("Greet", key: "a")
        h.tap("Increment", key: "b")  // waits behind "a"
        let call = try #require(h.handlerCalls.first)
        #expect(h.executor.nextDeadline() == h.clock.now.addingTimeInterval(30))
        try h.advance(seconds: 29)
        #expect(h.completions.isEmpty)
        try h.advance(seconds: 1)
        #expect(h.log.contains(.cancelHandlerCall(call.id)))
        #expect(h.completions.map(\.result) == [.failed(.handlerTimedOut), .performed(nil)])
        let late = h.handlerFinished(call, .succeeded(nil))
        #expect(late.isEmpty)
        #expect(h.reloads == [1, 1])
        // No handler deadline is left; what remains is the first idempotency record's expiry.
        #expect(h.executor.nextDeadline() == h.clock.now.addingTimeInterval(24 * 3600))
    }

    @Test("by default a handler has 30 s (ours: the spec has no number)")
    func defaultTimeout() throws {
        let h = try Fixture.harness()
        h.tap("Greet")
        try h.advance(seconds: 29.9)
        #expect(h.completions.isEmpty)
        try h.advance(seconds: 0.1)
        #expect(h.completions.map(\.result) == [.failed(.handlerTimedOut)])
    }

    @Test("the handler timeout is a setting")
    func timeoutSetting() throws {
        var settings = IntentSettings.defaults
        settings.handlerTimeout = 5
        let h = try Fixture.harness(settings: settings)
        h.tap("Greet")
        try h.advance(seconds: 5)
        #expect(h.completions.map(\.result) == [.failed(.handlerTimedOut)])
    }

    @Test("the next wake-up is reported as handler calls go out and come back, then the record's expiry, then none")
    func nextWakeUp() throws {
        let h = try Fixture.harness()
        let out = h.tap("Greet")
        #expect(out.last == .nextWakeUp(h.clock.now.addingTimeInterval(30)))
        let back = h.handlerFinished(h.handlerCalls[0], .succeeded(nil))
        #expect(back.last == .nextWakeUp(h.clock.now.addingTimeInterval(24 * 3600)))
        try h.advance(seconds: 24 * 3600)
        #expect(h.log.last == .nextWakeUp(nil))
        #expect(h.executor.idempotencyRecordCount == 0)
    }
}

@Suite("Handler deadlines on a system clock that steps back")
struct SteppedClockTests {
    final class Source: @unchecked Sendable {
        // Only the test's own thread moves it.
        var date = Date(timeIntervalSince1970: 1_767_225_600)
    }

    @Test("a deadline made after the system clock stepped back is never hidden behind an earlier-made one")
    func nextDeadlineNotLate() throws {
        let source = Source()
        let start = source.date
        var executor = IntentExecutor(clock: SystemClock(source: { source.date }))
        try executor.install(app: Fixture.app, groups: [Fixture.group], intents: Fixture.intents)
        for id: PlacementID in [1, 2] {
            executor.placementAdded(id, PlacedWidget(app: Fixture.app, kind: Fixture.kind, family: .systemSmall))
        }
        _ = executor.tap(WidgetTap(idempotencyKey: "a", app: Fixture.app, placement: 1, intent: "Greet"))
        source.date = start - 100  // the system clock steps back
        _ = executor.tap(WidgetTap(idempotencyKey: "b", app: Fixture.app, placement: 2, intent: "Greet"))
        // The engine's contract: nextDeadline() may be early, never later than a real deadline.
        let earliest = try #require(executor.deadlines.map(\.at).min())
        let next = executor.nextDeadline() ?? .distantFuture
        #expect(next.timeIntervalSinceReferenceDate <= earliest)
        source.date = start + 30
        let timedOut = executor.fireDue().filter { if case .cancelHandlerCall = $0 { true } else { false } }
        #expect(timedOut.count == 2)
    }
}
