package import GlimpseJSON

/// What replaying one interaction against a provider gave.
package struct Verdict: Sendable {
    package enum Outcome: Sendable {
        case ok
        case failed([Mismatch])
        /// The interaction does not apply to this provider as it runs (its `onlyIf`).
        case skipped(String)
    }

    package var interaction: Interaction
    package var outcome: Outcome
    /// Nothing answered at the target (no connection): every other interaction will fail alike.
    package var unreachable = false

    package var failed: Bool {
        if case .failed = outcome { return true }
        return false
    }

    /// One line: `ok <consumer> → <provider>: <name>`, or FAILED with each field, what the
    /// consumer relies on and what came.
    package var line: String {
        let head = "\(interaction.consumer) → \(interaction.provider): \(interaction.name)"
        switch outcome {
        case .ok:
            return "ok      \(head)"
        case .skipped(let why):
            return "skipped \(head) (\(why))"
        case .failed(let mismatches):
            let fields = mismatches.map { "field \($0.field): expected \($0.expected), got \($0.got)" }
            return "FAILED  \(head) (\(interaction.summary)): " + fields.joined(separator: "; ")
        }
    }

    /// The same as one JSON object (`glimpse contracts verify --json`).
    package var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember("consumer", .string(interaction.consumer)),
            JSONMember("provider", .string(interaction.provider)),
            JSONMember("interaction", .string(interaction.name)),
            JSONMember("file", .string(interaction.file)),
        ]
        switch outcome {
        case .ok:
            members.append(JSONMember("result", "ok"))
        case .skipped(let why):
            members.append(JSONMember("result", "skipped"))
            members.append(JSONMember("reason", .string(why)))
        case .failed(let mismatches):
            members.append(JSONMember("result", "failed"))
            members.append(
                JSONMember(
                    "failures",
                    .array(
                        mismatches.map { mismatch in
                            .object([
                                JSONMember("field", .string(mismatch.field)),
                                JSONMember("expected", .string(mismatch.expected)),
                                JSONMember("got", .string(mismatch.got)),
                            ])
                        })))
        }
        return .object(members)
    }
}
