import IntentEngine
import GlimpseMessages
import RPCCore

extension AnswerJudge {
    /// A handler endpoint answers for intents: any answer to the probe intent but
    /// UNIMPLEMENTED shows it serves `glimpse.app.v1.IntentHandler` (NOT_FOUND is the
    /// expected one).
    mutating func handler(_ probe: HandlerProbe, _ outcome: CallOutcome<GlimpseAppV1.PerformResponse>) {
        let intents = probe.intents.joined(separator: ", ")
        switch outcome {
        case .failed(.unimplemented, _, _):
            findings.append(
                VerifyFinding(
                    .error, "handler", subject: probe.endpoint,
                    "does not serve glimpse.app.v1.IntentHandler (UNIMPLEMENTED): a tap on \(intents) fails"))
        case .failed(let code, _, let seconds) where [.notFound, .invalidArgument].contains(code):
            findings.append(
                VerifyFinding(
                    .ok, "handler", subject: probe.endpoint,
                    "IntentHandler answers (\(code) for an intent it does not have, in \(Self.duration(seconds))) for \(intents)"
                ))
        default:
            let deadline = (IntentSettings.defaults.handlerTimeout, "glimpse-intent's handler timeout", "the tap fails")
            if let answer = answered(
                "handler", subject: probe.endpoint, family: "", endpoint: probe.endpoint,
                method: "IntentHandler.Perform", outcome, deadline: deadline)
            {
                let said = answer.outcome.map { outcome in
                    switch outcome {
                    case .succeeded: "succeeded"
                    case .failed(let failure): "failed: \(failure.message)"
                    }
                }
                findings.append(
                    VerifyFinding(
                        .ok, "handler", subject: probe.endpoint,
                        "IntentHandler answers (\(said ?? "no outcome") for an intent it does not have) for \(intents)")
                )
            }
        }
    }
}
