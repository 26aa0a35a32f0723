import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Idempotency")
struct IdempotencyTests {
    @Test("\"a replay returns the first result and runs nothing again\"")
    func replay() throws {
        let h = try Fixture.harness()
        h.tap("Increment", key: "k1")
        let replay = h.tap("Increment", key: "k1")
        #expect(h.value("count") == .int(1))
        #expect(h.reloads == [1])
        let completions = replay.compactMap { if case .completed(let c) = $0 { c } else { nil } }
        #expect(completions.count == 1)
        #expect(completions.first?.replayed == true)
        #expect(completions.first?.result == .performed(nil))
    }

    @Test("a refusal is a result too: its replay is refused the same way, even after the cause is gone")
    func refusalReplays() throws {
        let h = try Fixture.harness()
        h.executor.setDeviceLocked(true)
        h.tap("Increment", key: "k1")
        h.executor.setDeviceLocked(false)
        let replay = h.tap("Increment", key: "k1")
        #expect(
            replay.contains {
                if case .completed(let c) = $0 { c.result == .refused(.deviceLocked) && c.replayed } else { false }
            })
        #expect(h.value("count") == nil)
    }

    @Test("a replay while the first tap's handler is still out runs nothing; one completion answers both")
    func replayWhileRunning() throws {
        let h = try Fixture.harness()
        h.tap("Greet", key: "k1")
        let replay = h.tap("Greet", key: "k1")
        #expect(replay.contains(.alreadyRunning(idempotencyKey: "k1", app: Fixture.app)))
        #expect(h.handlerCalls.count == 1)
        h.handlerFinished(h.handlerCalls[0], .succeeded(.string("hi")))
        #expect(h.completions.map(\.result) == [.performed(.string("hi"))])
    }

    @Test("keys are per app: the same key from another app is another tap")
    func keysPerApp() throws {
        let h = try Fixture.harness()
        try h.executor.install(app: "com.other", groups: [Fixture.group], intents: Fixture.intents)
        h.tap("Increment", key: "k1")
        h.tap("Increment", placement: 2, key: "k1", app: "com.other")
        #expect(h.value("count") == .int(2))
    }

    @Test(
        "\"Idempotency records need a bound … expire by clock time\": after the window a key runs again (default 24 h)",
        arguments: [nil, 600.0])
    func expiry(setting: Double?) throws {
        var settings = IntentSettings.defaults
        if let setting { settings.idempotencyWindow = setting }
        let window = setting ?? 24 * 3600
        let h = try Fixture.harness(settings: settings)
        h.tap("Increment", key: "k1")
        h.tap("Increment", key: "k2")
        try h.advance(seconds: window - 1)
        h.tap("Increment", key: "k1")  // still within the window: a replay
        #expect(h.value("count") == .int(2))
        #expect(h.executor.idempotencyRecordCount == 2)
        try h.advance(seconds: 1)  // the expiry is a deadline of its own: no tap or manual fireDue() needed
        #expect(h.executor.idempotencyRecordCount == 0)  // memory does not grow forever
        h.tap("Increment", key: "k1")  // forgotten: a new tap
        #expect(h.value("count") == .int(3))
    }
}
