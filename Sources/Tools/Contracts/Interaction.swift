package import GlimpseJSON
package import RPCCore

/// One interaction of a consumer with a provider, as its contract file
/// (`Tests/Contracts/<consumer>-<provider>/<name>.json`) holds it: the calls that put the
/// provider in the state the interaction needs, the call the consumer makes, and what the
/// consumer relies on in the answer.
///
/// Invariants (checked when a contract is loaded, see `ContractLoader`):
/// - every method is one the method table knows (`ContractMethods`);
/// - an interaction expecting OK carries an example answer that decodes as the method's
///   response (unknown fields refused), satisfies every field rule, and holds nothing the
///   rules do not cover: a stub built from it gives the consumer no more than the contract
///   promises.
package struct Interaction: Sendable {
    /// `glimpse-gateway`, `glimpse-intent`, …
    package var consumer: String
    /// `glimpse-timeline`, `glimpse-intent`, `glimpse-activity`, `glimpse-asset`.
    package var provider: String
    /// The file's name without `.json` (e.g. `get-placement`): how reports name it.
    package var name: String
    /// What the interaction is, in words.
    package var summary: String
    /// Where the consumer makes the call and reads the answer.
    package var relies: String
    /// Anything else a reader should know (how the interaction narrows or stands in for
    /// what the consumer does).
    package var notes: String
    /// The file, relative to the contracts directory.
    package var file: String
    /// Calls that put the provider in the state the interaction needs (each must be OK).
    package var setup: [Step]
    /// The consumer's call.
    package var call: Step
    /// Server streams: calls made once the first message arrived (the stream is open at
    /// the provider).
    package var during: [Step]
    /// Server streams: a live stream (a watch) is read until what the consumer relies on
    /// holds on the messages so far, then hung up (failing if the timeout passes first); any
    /// other stream is read to its end.
    package var live: Bool
    /// The interaction applies only when this holds (e.g. the provider runs a manual clock).
    package var onlyIf: Condition?
    package var expect: Expectation
    /// The answer a stub of the provider gives the consumer: the response message as proto3
    /// JSON, or `{"messages": [...]}` for a server stream. Nil when the expected status is
    /// not OK.
    package var example: JSONValue?
    /// Whether the consumer's stub answers with this interaction. False for one that differs
    /// from another only by the provider's state (a retried tap), which a stub cannot tell.
    package var stubbed: Bool
    /// Calls after the interaction, whatever it gave (their failures are ignored): what the
    /// setup created goes away, so verifying against a long-running service leaves little.
    package var teardown: [Step]

    /// `glimpse-gateway → glimpse-timeline: get-placement`.
    package var title: String { "\(consumer) → \(provider): \(name)" }
}

/// One call: a method of the provider, its metadata and request, and the values to keep
/// from its answer for the steps after it.
package struct Step: Sendable {
    /// `glimpse.timeline.v1.TimelineService/GetPlacement`.
    package var method: String
    /// Metadata templates (e.g. `authorization: Bearer ${token}`).
    package var metadata: [(key: String, value: String)]
    /// The request as proto3 JSON with `${name}` templates; several for a client stream.
    package var requests: [JSONValue]
    /// Values to keep from the answer: variable name → field path.
    package var save: [(name: String, path: FieldPath)]
}

/// What the consumer relies on: the status, and for OK answers the fields it reads.
package struct Expectation: Sendable {
    package var status: StatusCode
    /// A text the status message must contain (when the consumer reads the message).
    package var messageContains: String?
    /// The refusal's typed reason (the ErrorInfo in `grpc-status-details-bin`): what a
    /// consumer that switches on the reason relies on, rather than the message's words.
    package var reason: String?
    /// The ErrorInfo's domain (the enum the reason belongs to), when the contract names it.
    package var domain: String?
    package var fields: [FieldRule]
}

/// A field the consumer reads and the constraint it relies on.
package struct FieldRule: Sendable {
    package var path: FieldPath
    package var constraints: [Constraint]
    /// Absent is fine; when present the constraints hold.
    package var optional: Bool
}

package enum FieldType: String, Sendable, CaseIterable {
    case number, string, boolean, object, array, timestamp, duration, `enum`, bytes
}

package enum Constraint: Sendable {
    /// Equal to this value (a template: `${placement}` is the saved value).
    case equals(JSONValue)
    case type(FieldType)
    /// A number at least this.
    case min(Double)
    /// A string, array or object with something in it.
    case nonEmpty
    /// One of these values.
    case oneOf([JSONValue])
    /// An array holding this value, or a string holding this text.
    case contains(JSONValue)
    /// A string matching this regular expression.
    case matches(String)
    /// Not set (proto3: at its default).
    case absent
}

/// A call whose answer decides whether an interaction applies.
package struct Condition: Sendable {
    package var step: Step
    package var path: FieldPath
    package var equals: JSONValue
}
