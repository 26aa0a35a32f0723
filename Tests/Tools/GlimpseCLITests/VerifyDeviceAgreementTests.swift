import Foundation
import GlimpseCLI
import GlimpseJSON
import GlimpseMessages
import GlimpseVocabulary
import RPCCore
import Testing
import TimelineEngine

/// Where the device takes an answer, verify passes it (with a warning when it is not as it
/// should be); each declared intent handler is called once.
extension VerifyCheckTests {
    @Test("a provider without Placeholder or Snapshot passes with warnings: the device draws its own")
    func optionalCalls() throws {
        let verifier = AppVerifier(try Self.inputs())
        let unimplemented = "Method not implemented!"
        let widgets = Self.answers(verifier, timeline: Self.good).map { answers in
            var answers = answers
            answers.placeholder = .failed(.unimplemented, unimplemented, seconds: 0.001)
            answers.snapshot = .failed(.unimplemented, unimplemented, seconds: 0.001)
            return answers
        }
        let report = verifier.report(widgets: widgets, views: [])
        let warnings = Self.lines(report, .warning)
        #expect(
            warnings.contains(
                "Other systemSmall placeholder: WidgetProvider.Placeholder is not implemented: the device draws its own grey placeholder until the first timeline"
            ))
        #expect(
            warnings.contains { $0.hasPrefix("Other systemSmall snapshot: WidgetProvider.Snapshot is not implemented") }
        )
        #expect(!Self.lines(report, .error).contains { $0.contains("placeholder") || $0.contains("snapshot") })
        // Another failure of Placeholder is still an error.
        let failing = Self.answers(verifier, timeline: Self.good).map { answers in
            var answers = answers
            answers.placeholder = .failed(.internal, "boom", seconds: 0.001)
            return answers
        }
        #expect(
            Self.lines(verifier.report(widgets: failing, views: []), .error).contains {
                $0.hasPrefix("Other systemSmall placeholder: WidgetProvider.Placeholder failed: ")
            })
    }

    @Test("each declared handler endpoint is called once: UNIMPLEMENTED is an error naming its intents")
    func handlers() throws {
        let verifier = AppVerifier(try Self.inputs())
        #expect(verifier.handlerProbes.map(\.endpoint) == ["127.0.0.1:9"])
        #expect(verifier.handlerProbes.first?.intents == ["RateIntent", "BoardOnlyIntent"])
        let widgets = Self.answers(verifier, timeline: Self.good)
        let missing = verifier.report(
            widgets: widgets, views: [], handlers: [.failed(.unimplemented, "Method not implemented!", seconds: 0.001)])
        #expect(
            Self.lines(missing, .error).contains(
                "127.0.0.1:9  handler: does not serve glimpse.app.v1.IntentHandler (UNIMPLEMENTED): a tap on RateIntent, BoardOnlyIntent fails"
            ))
        let serving = verifier.report(
            widgets: widgets, views: [], handlers: [.failed(.notFound, "no intent", seconds: 0.001)])
        #expect(Self.lines(serving, .ok).contains { $0.hasPrefix("127.0.0.1:9  handler: IntentHandler answers (") })
        #expect(!Self.lines(serving, .error).contains { $0.contains("handler") })
    }
}
