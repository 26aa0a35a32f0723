import RPCCore
import Testing

/// A deserializer's `RPCStatusConvertible` error chooses the status a request that does
/// not read ends with (the JSON coders' INVALID_ARGUMENT); any other error stays INTERNAL.
@Suite struct RequestStatusTests {
    struct BadContent: RPCStatusConvertible {
        var rpcStatus: Status { Status(code: .invalidArgument, message: "fInt32: 1.5 is not an integer (int32)") }
    }
    struct Unreadable: Error {}

    struct Rejecting<Failure: Error & Sendable>: MessageDeserializer {
        let failure: Failure
        func deserialize(_ bytes: [UInt8]) throws -> [UInt8] { throw failure }
    }

    struct Strict<Failure: Error & Sendable>: RPCService {
        static var method: MethodDescriptor { MethodDescriptor(service: "t.Strict", method: "M") }
        let failure: Failure
        func registerMethods(with router: inout RPCRouter) {
            router.registerUnary(Self.method, deserializer: Rejecting(failure: failure), serializer: raw) {
                request, _ in
                ServerResponse(message: request.message)
            }
        }
    }

    func call(_ service: some RPCService) async -> RPCError? {
        await #expect(throws: RPCError.self) {
            try await withInProcessClient(services: [service]) { client in
                try await client.unary(
                    request: ClientRequest(message: [UInt8]([1])),
                    method: MethodDescriptor(service: "t.Strict", method: "M"),
                    serializer: raw, deserializer: raw)
            }
        }
    }

    @Test func aStatusConvertibleErrorChoosesTheStatus() async {
        let error = await call(Strict(failure: BadContent()))
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "fInt32: 1.5 is not an integer (int32)")
    }

    @Test func anyOtherErrorIsInternal() async {
        let error = await call(Strict(failure: Unreadable()))
        #expect(error?.code == .internal)
    }
}
