import Foundation
import Testing
@testable import IntentEngine

@Suite("External handlers")
struct HandlerTests {
    @Test("the engine emits \"call the app's handler for intent X with params\", defaults filled in")
    func callEffect() throws {
        let h = IntentHarness()
        try h.executor.install(app: "com.example.pixartracker", groups: [], intents: [
            IntentDefinition(type: "MarkFilmWatchedIntent", title: "Mark Film as Watched", parameters: [
                IntentParameter(name: "filmID", type: .string), IntentParameter(name: "filmTitle", type: .string),
                IntentParameter(name: "rating", type: .int, defaultValue: .int(5)),
            ], action: .handler, widgetKinds: ["PixarFilmWidget"]),
        ])
        h.tap("MarkFilmWatchedIntent", placement: 4, kind: "PixarFilmWidget",
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
        #expect(h.executor.nextDeadline() == nil)
    }

    @Test("the handler timeout is a setting (no spec number: 30 s is ours)")
    func timeoutSetting() throws {
        #expect(IntentSettings.defaults.handlerTimeout == 30)
        var settings = IntentSettings.defaults
        settings.handlerTimeout = 5
        let h = try Fixture.harness(settings: settings)
        h.tap("Greet")
        try h.advance(seconds: 5)
        #expect(h.completions.map(\.result) == [.failed(.handlerTimedOut)])
    }

    @Test("the next wake-up is reported as handler calls go out and come back")
    func nextWakeUp() throws {
        let h = try Fixture.harness()
        let out = h.tap("Greet")
        #expect(out.last == .nextWakeUp(h.clock.now.addingTimeInterval(30)))
        let back = h.handlerFinished(h.handlerCalls[0], .succeeded(nil))
        #expect(back.last == .nextWakeUp(nil))
    }
}
