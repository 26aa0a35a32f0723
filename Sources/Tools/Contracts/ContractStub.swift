import GlimpseJSON
import GlimpseRPC
package import RPCCore
import Synchronization

/// A provider as one consumer's contract describes it, and no more: each request that
/// matches an interaction of the contract (the same fields and values, any value where
/// the contract has a `${variable}`, and the same `authorization`) gets that interaction's
/// example answer or its error status. Anything else is refused (FAILED_PRECONDITION
/// naming the closest interaction and the first difference) and recorded in `unmatched`,
/// so a consumer test that passes against the stub shows the consumer needs nothing the
/// contract does not hold. The consumer side of a contract test.
///
/// Every method of the provider's services is served; one no interaction covers is
/// refused the same way. A live stream (an interaction with `live`) stays open after its
/// messages until the consumer hangs up.
package final class ContractStub: RPCService, Sendable {
    package let consumer: String
    package let provider: String
    private let interactions: [Interaction]
    private let log = Mutex(Log())

    private struct Log {
        var served: [String: Int] = [:]
        var unmatched: [String] = []
    }

    /// The stub of `provider` made from `consumer`'s contract (its stubbed interactions).
    package init(_ contracts: ContractSet, consumer: String, provider: String) {
        self.consumer = consumer
        self.provider = provider
        interactions = contracts.between(consumer, provider).filter(\.stubbed)
    }

    /// How many requests each interaction answered, by name.
    package var served: [String: Int] { log.withLock { $0.served } }

    /// The requests no interaction matched, each with why.
    package var unmatched: [String] { log.withLock { $0.unmatched } }

    package func registerMethods(with router: inout RPCRouter) {
        let services = ContractMethods.services[provider] ?? []
        for method in ContractMethods.all where services.contains(method.descriptor.service) {
            switch method.kind {
            case .unary:
                router.registerUnary(method.descriptor, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) {
                    request, context in
                    let interaction = try self.match(
                        method, [try method.request.json(request.message)], context.requestMetadata)
                    return ServerResponse(message: try self.single(interaction, method))
                }
            case .clientStreaming:
                router.registerClientStreaming(
                    method.descriptor, deserializer: RawBytesCoder(), serializer: RawBytesCoder()
                ) { requests, context in
                    var messages: [JSONValue] = []
                    for try await request in requests { messages.append(try method.request.json(request)) }
                    let interaction = try self.match(method, messages, context.requestMetadata)
                    return ServerResponse(message: try self.single(interaction, method))
                }
            case .serverStreaming:
                router.registerServerStreaming(
                    method.descriptor, deserializer: RawBytesCoder(), serializer: RawBytesCoder()
                ) { request, writer, context in
                    let interaction = try self.match(
                        method, [try method.request.json(request.message)], context.requestMetadata)
                    try self.refuse(interaction)
                    for message in interaction.example?["messages"]?.items ?? [] {
                        try await writer.write(try method.response.bytes(message))
                    }
                    // A live stream: open until the consumer hangs up.
                    while interaction.live { try await Task.sleep(for: .seconds(3600)) }
                    return Metadata()
                }
            }
        }
    }

    /// The interaction whose call `requests` (with `metadata`) is.
    private func match(
        _ method: ContractMethod, _ requests: [JSONValue], _ metadata: Metadata
    ) throws(RPCError) -> Interaction {
        var closest: (Interaction, Mismatch)?
        for interaction in interactions where interaction.call.method == method.name {
            guard let mismatch = Self.difference(interaction.call, requests, metadata) else {
                log.withLock { $0.served[interaction.name, default: 0] += 1 }
                return interaction
            }
            if closest == nil { closest = (interaction, mismatch) }
        }
        let request = requests.count == 1 ? JSONText.describe(requests[0]) : JSONText.describe(.array(requests))
        let why = closest.map { "closest \($0.0.name): \($0.1)" } ?? "the contract has no interaction calling it"
        let message =
            "contract stub \(consumer) → \(provider): no interaction matches \(method.name) \(request) (\(why))"
        log.withLock { $0.unmatched.append(message) }
        throw RPCError(code: .failedPrecondition, message: message)
    }

    /// Where `requests` and `metadata` differ from the step's; nil when they do not.
    static func difference(_ step: Step, _ requests: [JSONValue], _ metadata: Metadata) -> Mismatch? {
        guard requests.count == step.requests.count else {
            return Mismatch(field: "requests", expected: "\(step.requests.count) messages", got: "\(requests.count)")
        }
        for (index, template) in step.requests.enumerated() {
            if var mismatch = Template.match(template, requests[index]) {
                if requests.count > 1 { mismatch.field = "requests[\(index)].\(mismatch.field)" }
                return mismatch
            }
        }
        for (key, template) in step.metadata {
            let values = metadata[stringValues: key]
            guard values.contains(where: { Template.match(.string(template), .string($0)) == nil }) else {
                return Mismatch(
                    field: "metadata \(key)", expected: "\"\(template)\"",
                    got: values.isEmpty ? "absent" : values.joined(separator: ", "))
            }
        }
        if !step.metadata.contains(where: { $0.key == "authorization" }),
            !metadata[stringValues: "authorization"].isEmpty
        {
            return Mismatch(
                field: "metadata authorization", expected: "absent (the contract's call carries no token)",
                got: "a token")
        }
        return nil
    }

    private func refuse(_ interaction: Interaction) throws(RPCError) {
        guard interaction.expect.status != .ok else { return }
        let expect = interaction.expect
        let message = expect.messageContains ?? "contract stub: \(interaction.name)"
        guard let reason = expect.reason else { throw RPCError(code: expect.status, message: message) }
        throw RPCError(code: expect.status, message: message, reason: reason, domain: expect.domain ?? "")
    }

    private func single(_ interaction: Interaction, _ method: ContractMethod) throws -> [UInt8] {
        try refuse(interaction)
        return try method.response.bytes(interaction.example ?? .object([]))
    }
}
