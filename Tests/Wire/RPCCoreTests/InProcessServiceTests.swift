import RPCCore
import RPCTestService
import Synchronization
import Testing

@Suite("Services over the in-process transport")
struct InProcessServiceTests {
    @Test func unaryEchoesWithMetadataBothWays() async throws {
        var metadata = Metadata(["x-echo-initial-name": "ada", "x-echo-trailing-x": "t"])
        metadata.addBinary([0, 255], forKey: "x-echo-trailing-bin")
        let sent = metadata
        let reply = try await withInProcessClient { try await $0.echo([1, 2, 3], sent) }
        #expect(reply.message == [1, 2, 3])
        #expect(reply.metadata[stringValues: "x-echo-initial-name"] == ["ada"])
        #expect(reply.trailingMetadata[stringValues: "x-echo-trailing-x"] == ["t"])
        #expect(reply.trailingMetadata[binaryValues: "x-echo-trailing-bin"] == [[0, 255]])
    }

    @Test func serverStreamingSendsEveryReply() async throws {
        let count = try await withInProcessClient { client in
            try await client.serverStreaming(
                request: ClientRequest(message: [9], metadata: Metadata(["x-reply-count": "25"])),
                method: SteeredTestService.serverStream, serializer: raw, deserializer: raw
            ) { responses in try await responses.reduce(0) { count, _ in count + 1 } }
        }
        #expect(count == 25)
    }

    @Test func clientStreamingSeesEveryRequest() async throws {
        let reply = try await withInProcessClient { client in
            try await client.clientStreaming(
                method: SteeredTestService.clientStream, serializer: raw, deserializer: raw
            ) { writer in
                for _ in 0..<10 { try await writer.write([1, 2, 3]) }
            }
        }
        #expect(reply.message == Array("30".utf8))
    }

    @Test func bidirectionalStreamingEchoesAsItGoes() async throws {
        let sizes = try await withInProcessClient { client in
            try await client.bidirectionalStreaming(
                method: SteeredTestService.bidi, serializer: raw, deserializer: raw,
                requestProducer: { writer in
                    for size in [3, 1, 4] { try await writer.write(Array(repeating: 0, count: size)) }
                },
                onResponse: { responses in try await responses.reduce(into: [Int]()) { $0.append($1.count) } })
        }
        #expect(sizes == [3, 1, 4])
    }

    @Test func handlerErrorsBecomeTheStatus() async throws {
        let message = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"
        var metadata = Metadata(["x-fail-code": "9"])
        metadata.addBinary(Array(message.utf8), forKey: "x-fail-message-bin")
        let sent = metadata
        let error = await #expect(throws: RPCError.self) {
            try await withInProcessClient { try await $0.echo([], sent) }
        }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message == message)
    }

    @Test func unknownMethodsAndServicesAreUnimplemented() async throws {
        for method in [
            MethodDescriptor(service: SteeredTestService.serviceName, method: "Nope"),
            MethodDescriptor(service: "no.Such", method: "Unary"),
        ] {
            let error = await #expect(throws: RPCError.self) {
                try await withInProcessClient { client in
                    try await client.unary(
                        request: ClientRequest(message: [UInt8]()), method: method, serializer: raw, deserializer: raw)
                }
            }
            #expect(error?.code == .unimplemented)
        }
    }

    @Test("a method not served is answered the status `unservedStatus` gives, or UNIMPLEMENTED when it gives none")
    func unservedMethodsGetTheStatusTheRouterIsGiven() async throws {
        let standbyOf = "glimpse.Elsewhere"
        for (method, expected) in [
            (MethodDescriptor(service: standbyOf, method: "Call"), StatusCode.unavailable),
            (MethodDescriptor(service: "no.Such", method: "Call"), .unimplemented),
            (SteeredTestService.unary, .ok),  // served: the router's own answer
        ] {
            let code: StatusCode
            do {
                _ = try await withInProcessClient(
                    unservedStatus: { $0.service == standbyOf ? Status(code: .unavailable, message: "a standby") : nil }
                ) { client in
                    try await client.unary(
                        request: ClientRequest(message: [UInt8]()), method: method, serializer: raw, deserializer: raw)
                }
                code = .ok
            } catch let error as RPCError {
                code = error.code
                if expected == .unavailable { #expect(error.message == "a standby") }
            }
            #expect(code == expected, "\(method)")
        }
    }

    @Test func anExpiredDeadlineIsDeadlineExceeded() async throws {
        let error = await #expect(throws: RPCError.self) {
            try await withInProcessClient {
                try await $0.echo([], Metadata(["x-sleep-ms": "5000"]), timeout: .milliseconds(50))
            }
        }
        #expect(error?.code == .deadlineExceeded)
    }

    @Test func oversizedRequestsAreResourceExhausted() async throws {
        let error = await #expect(throws: RPCError.self) {
            try await withInProcessClient(maxReceiveMessageSize: 100) {
                try await $0.echo(Array(repeating: 1, count: 101))
            }
        }
        #expect(error?.code == .resourceExhausted)
    }

    @Test func aRequestThatDoesNotParseIsInternal() async throws {
        struct Rejecting: MessageDeserializer {
            func deserialize(_ bytes: [UInt8]) throws -> [UInt8] { throw RPCError(code: .dataLoss) }
        }
        struct Strict: RPCService {
            func registerMethods(with router: inout RPCRouter) {
                router.registerUnary(
                    MethodDescriptor(service: "t.Strict", method: "M"), deserializer: Rejecting(), serializer: raw
                ) { request, _ in
                    ServerResponse(message: request.message)
                }
            }
        }
        let error = await #expect(throws: RPCError.self) {
            try await withInProcessClient(services: [Strict()]) { client in
                try await client.unary(
                    request: ClientRequest(message: [UInt8]([1])),
                    method: MethodDescriptor(service: "t.Strict", method: "M"), serializer: raw, deserializer: raw)
            }
        }
        #expect(error?.code == .internal)
    }

    @Test func otherHandlerErrorsAreUnknown() async throws {
        struct Oops: Error {}
        struct Failing: RPCService {
            func registerMethods(with router: inout RPCRouter) {
                router.registerUnary(
                    MethodDescriptor(service: "t.Failing", method: "M"), deserializer: raw, serializer: raw
                ) { _, _ -> ServerResponse<[UInt8]> in
                    throw Oops()
                }
            }
        }
        let error = await #expect(throws: RPCError.self) {
            try await withInProcessClient(services: [Failing()]) { client in
                try await client.unary(
                    request: ClientRequest(message: [UInt8]()),
                    method: MethodDescriptor(service: "t.Failing", method: "M"), serializer: raw, deserializer: raw)
            }
        }
        #expect(error?.code == .unknown)
    }

    @Test func aHandlerErrorThatNamesItsStatusAnswersWithIt() async throws {
        struct StoreDown: RPCStatusConvertible {
            var rpcStatus: Status { Status(code: .unavailable, message: "retry") }
        }
        struct Failing: RPCService {
            func registerMethods(with router: inout RPCRouter) {
                router.registerUnary(
                    MethodDescriptor(service: "t.Failing", method: "M"), deserializer: raw, serializer: raw
                ) { _, _ -> ServerResponse<[UInt8]> in
                    throw StoreDown()
                }
            }
        }
        let error = await #expect(throws: RPCError.self) {
            try await withInProcessClient(services: [Failing()]) { client in
                try await client.unary(
                    request: ClientRequest(message: [UInt8]()),
                    method: MethodDescriptor(service: "t.Failing", method: "M"), serializer: raw, deserializer: raw)
            }
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message == "retry")
    }

    @Test func cancellingTheClientCancelsTheHandler() async throws {
        let observed = CancellationProbe()
        try await withInProcessClient(services: [observed]) { client in
            let call = Task {
                try await client.unary(
                    request: ClientRequest(message: [UInt8]()), method: CancellationProbe.method, serializer: raw,
                    deserializer: raw)
            }
            await observed.started.wait()
            call.cancel()
            await #expect(throws: RPCError.self) { try await call.value }
            await observed.cancelled.wait()
        }
    }
}
