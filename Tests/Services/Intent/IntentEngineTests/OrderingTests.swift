import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Taps on one placement run in order, one at a time")
struct OrderingTests {
    @Test("\"Taps on one placement run in order, one at a time\": later taps wait for the handler call")
    func oneAtATime() throws {
        let h = try Fixture.harness()
        h.tap("Greet", key: "a")
        h.tap("Increment", key: "b")
        h.tap("SetName", parameters: ["name": .string("Coco")], key: "c")
        #expect(h.value("count") == nil)  // waiting behind "a"
        #expect(h.completions.isEmpty)
        h.tap("Greet", placement: 2, key: "other")  // another placement does not wait
        #expect(h.handlerCalls.map(\.placement) == [1, 2])

        h.handlerFinished(h.handlerCalls[0], .succeeded(nil))
        #expect(h.completions.map(\.idempotencyKey) == ["a", "b", "c"])
        #expect(h.value("count") == .int(1))
        #expect(h.value("name") == .string("Coco"))
        #expect(h.reloads == [1, 1, 1])
    }

    @Test("a second handler tap waits for the first; each gets its own call, in order")
    func handlersInOrder() throws {
        let h = try Fixture.harness()
        h.tap("Greet", key: "a")
        h.tap("Greet", key: "b")
        #expect(h.handlerCalls.count == 1)
        h.handlerFinished(h.handlerCalls[0], .failed(message: "offline"))
        #expect(h.handlerCalls.count == 2)
        h.handlerFinished(h.handlerCalls[1], .succeeded(nil))
        #expect(h.completions.map(\.result) == [.failed(.handler(message: "offline")), .performed(nil)])
        #expect(h.completions.map(\.idempotencyKey) == ["a", "b"])
    }
}
