import Contracts
import GlimpseJSON
import RPCCore

/// A provider changed on purpose: forwards every call of the provider's services to the
/// real one and passes each answer through `alter` (by method name, as proto3 JSON) on the
/// way back — what a change to the provider's code would do to its answers.
final class AlteringProxy: RPCService, Sendable {
    let provider: String
    let target: GRPCClient
    let alter: @Sendable (String, JSONValue) -> JSONValue

    init(provider: String, target: GRPCClient, alter: @escaping @Sendable (String, JSONValue) -> JSONValue) {
        self.provider = provider
        self.target = target
        self.alter = alter
    }

    private func rewrite(_ method: ContractMethod, _ bytes: [UInt8]) throws -> [UInt8] {
        try method.response.bytes(alter(method.name, try method.response.json(bytes)))
    }

    func registerMethods(with router: inout RPCRouter) {
        let services = ContractMethods.services[provider] ?? []
        for method in ContractMethods.all where services.contains(method.descriptor.service) {
            let raw = RawBytesCoder()
            switch method.kind {
            case .unary:
                router.registerUnary(method.descriptor, deserializer: raw, serializer: raw) { request, context in
                    let answer = try await self.target.unary(
                        request: ClientRequest(message: request.message, metadata: context.requestMetadata),
                        method: method.descriptor, serializer: raw, deserializer: raw)
                    return ServerResponse(message: try self.rewrite(method, answer.message))
                }
            case .clientStreaming:
                router.registerClientStreaming(method.descriptor, deserializer: raw, serializer: raw) {
                    requests, context in
                    var messages: [[UInt8]] = []
                    for try await request in requests { messages.append(request) }
                    let answer = try await self.target.clientStreaming(
                        metadata: context.requestMetadata, method: method.descriptor, serializer: raw, deserializer: raw
                    ) { writer in
                        for message in messages { try await writer.write(message) }
                    }
                    return ServerResponse(message: try self.rewrite(method, answer.message))
                }
            case .serverStreaming:
                router.registerServerStreaming(method.descriptor, deserializer: raw, serializer: raw) {
                    request, writer, context in
                    try await self.target.serverStreaming(
                        request: ClientRequest(message: request.message, metadata: context.requestMetadata),
                        method: method.descriptor, serializer: raw, deserializer: raw
                    ) { responses in
                        while let message = try await responses.nextMessage() {
                            try await writer.write(try self.rewrite(method, message))
                        }
                    }
                    return Metadata()
                }
            }
        }
    }
}

extension JSONValue {
    /// The object without `key`.
    func removing(_ key: String) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.key != key })
    }
}
