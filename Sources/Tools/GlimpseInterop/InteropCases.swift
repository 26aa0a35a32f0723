package import RPCCore

/// The interoperability test cases a client runs, as grpc/grpc's
/// doc/interop-test-descriptions.md describes them. Each throws `InteropFailure` (or the
/// call's `RPCError`) when an assertion does not hold.
package enum InteropCase: String, CaseIterable, Sendable {
    case emptyUnary = "empty_unary"
    case largeUnary = "large_unary"
    case clientStreaming = "client_streaming"
    case serverStreaming = "server_streaming"
    case pingPong = "ping_pong"
    case emptyStream = "empty_stream"
    case statusCodeAndMessage = "status_code_and_message"
    case specialStatusMessage = "special_status_message"
    case customMetadata = "custom_metadata"
    case unimplementedMethod = "unimplemented_method"
    case unimplementedService = "unimplemented_service"
    case cancelAfterBegin = "cancel_after_begin"
    case cancelAfterFirstResponse = "cancel_after_first_response"
    case timeoutOnSleepingServer = "timeout_on_sleeping_server"

    package func run(on client: GRPCClient) async throws {
        let test = GrpcTesting.TestService.Client(wrapping: client)
        switch self {
        case .emptyUnary: try await InteropCases.emptyUnary(test)
        case .largeUnary: try await InteropCases.largeUnary(test)
        case .clientStreaming: try await InteropCases.clientStreaming(test)
        case .serverStreaming: try await InteropCases.serverStreaming(test)
        case .pingPong: try await InteropCases.pingPong(test)
        case .emptyStream: try await InteropCases.emptyStream(test)
        case .statusCodeAndMessage: try await InteropCases.statusCodeAndMessage(test, "test status message")
        case .specialStatusMessage: try await InteropCases.statusCodeAndMessage(test, InteropCases.specialMessage)
        case .customMetadata: try await InteropCases.customMetadata(test)
        case .unimplementedMethod: try await InteropCases.unimplementedMethod(test)
        case .unimplementedService:
            try await InteropCases.unimplementedService(GrpcTesting.UnimplementedService.Client(wrapping: client))
        case .cancelAfterBegin: try await InteropCases.cancelAfterBegin(test)
        case .cancelAfterFirstResponse: try await InteropCases.cancelAfterFirstResponse(test)
        case .timeoutOnSleepingServer: try await InteropCases.timeoutOnSleepingServer(test)
        }
    }
}

package struct InteropFailure: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

enum InteropCases {
    typealias T = GrpcTesting
    static let specialMessage = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"

    static func check(_ condition: Bool, _ what: @autoclosure () -> String) throws {
        if !condition { throw InteropFailure(what()) }
    }

    static func zeros(_ n: Int) -> T.Payload { T.Payload(body: [UInt8](repeating: 0, count: n)) }

    /// Runs `body`, which must fail with `code`.
    static func expectStatus(_ code: StatusCode, message: String? = nil, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as RPCError {
            try check(error.code == code, "status \(error.code), expected \(code)")
            if let message { try check(error.message == message, "message \(error.message.debugDescription)") }
            return
        }
        throw InteropFailure("the call succeeded; expected \(code)")
    }

    static func emptyUnary(_ test: T.TestService.Client) async throws {
        _ = try await test.emptyCall(ClientRequest(message: T.Empty()))
    }

    static func largeUnary(_ test: T.TestService.Client) async throws {
        let response = try await test.unaryCall(
            ClientRequest(message: T.SimpleRequest(responseSize: 314_159, payload: zeros(271_828))))
        let body = response.message.payload?.body ?? []
        try check(body.count == 314_159 && body.allSatisfy { $0 == 0 }, "payload of \(body.count) bytes")
    }

    static func clientStreaming(_ test: T.TestService.Client) async throws {
        let response = try await test.streamingInputCall { writer in
            for size in [27182, 8, 1828, 45904] {
                try await writer.write(T.StreamingInputCallRequest(payload: zeros(size)))
            }
        }
        try check(
            response.message.aggregatedPayloadSize == 74922, "aggregated \(response.message.aggregatedPayloadSize)")
    }

    static func serverStreaming(_ test: T.TestService.Client) async throws {
        let sizes: [Int32] = [31415, 9, 2653, 58979]
        let request = T.StreamingOutputCallRequest(responseParameters: sizes.map { T.ResponseParameters(size: $0) })
        let got = try await test.streamingOutputCall(ClientRequest(message: request)) { responses in
            var got: [Int] = []
            for try await response in responses { got.append(response.payload?.body.count ?? -1) }
            return got
        }
        try check(got == sizes.map(Int.init), "sizes \(got)")
    }

    static func pingPong(_ test: T.TestService.Client) async throws {
        let pairs: [(Int32, Int)] = [(31415, 27182), (9, 8), (2653, 1828), (58979, 45904)]
        let (turns, turn) = AsyncStream.makeStream(of: Int.self)
        let got = try await test.fullDuplexCall(
            requestProducer: { writer in
                for await index in turns {
                    guard index < pairs.count else { return }
                    let (size, payload) = pairs[index]
                    try await writer.write(
                        T.StreamingOutputCallRequest(
                            responseParameters: [T.ResponseParameters(size: size)], payload: zeros(payload)))
                }
            },
            onResponse: { responses in
                var got: [Int] = []
                turn.yield(0)
                for try await response in responses {
                    got.append(response.payload?.body.count ?? -1)
                    turn.yield(got.count)  // the next request only after this reply
                }
                turn.finish()
                return got
            })
        try check(got == pairs.map { Int($0.0) }, "sizes \(got)")
    }

    static func emptyStream(_ test: T.TestService.Client) async throws {
        let count = try await test.fullDuplexCall(
            requestProducer: { _ in },
            onResponse: { responses in
                var count = 0
                for try await _ in responses { count += 1 }
                return count
            })
        try check(count == 0, "\(count) responses to no requests")
    }

    static func statusCodeAndMessage(_ test: T.TestService.Client, _ message: String) async throws {
        let status = T.EchoStatus(code: 2, message: message)
        try await expectStatus(.unknown, message: message) {
            _ = try await test.unaryCall(ClientRequest(message: T.SimpleRequest(responseStatus: status)))
        }
        try await expectStatus(.unknown, message: message) {
            _ = try await test.fullDuplexCall(
                requestProducer: { writer in
                    try await writer.write(T.StreamingOutputCallRequest(responseStatus: status))
                },
                onResponse: { responses in
                    for try await _ in responses {}
                })
        }
    }

    static func customMetadata(_ test: T.TestService.Client) async throws {
        var metadata = Metadata()
        metadata.addString("test_initial_metadata_value", forKey: "x-grpc-test-echo-initial")
        metadata.addBinary([0xab, 0xab, 0xab], forKey: "x-grpc-test-echo-trailing-bin")
        func checkEcho(_ initial: Metadata, _ trailing: Metadata) throws {
            try check(
                initial[stringValues: "x-grpc-test-echo-initial"] == ["test_initial_metadata_value"],
                "initial \(initial)")
            try check(
                trailing[binaryValues: "x-grpc-test-echo-trailing-bin"] == [[0xab, 0xab, 0xab]], "trailing \(trailing)")
        }
        let unary = try await test.unaryCall(
            ClientRequest(
                message: T.SimpleRequest(responseSize: 314_159, payload: zeros(271_828)), metadata: metadata))
        try check(unary.message.payload?.body.count == 314_159, "unary payload")
        try checkEcho(unary.metadata, unary.trailingMetadata)
        try await test.fullDuplexCall(
            metadata: metadata,
            requestProducer: { writer in
                try await writer.write(
                    T.StreamingOutputCallRequest(
                        responseParameters: [T.ResponseParameters(size: 314_159)], payload: zeros(271_828)))
            },
            onResponse: { responses in
                let initial = try await responses.metadata()
                var count = 0
                for try await response in responses {
                    try check(response.payload?.body.count == 314_159, "duplex payload")
                    count += 1
                }
                try check(count == 1, "\(count) duplex replies")
                try checkEcho(initial, responses.trailingMetadata)
            })
    }

    static func unimplementedMethod(_ test: T.TestService.Client) async throws {
        try await expectStatus(.unimplemented) {
            _ = try await test.unimplementedCall(ClientRequest(message: T.Empty()))
        }
    }

    static func unimplementedService(_ other: T.UnimplementedService.Client) async throws {
        try await expectStatus(.unimplemented) {
            _ = try await other.unimplementedCall(ClientRequest(message: T.Empty()))
        }
    }

    /// Cancelling the calling task cancels the call (RST_STREAM CANCEL on HTTP/2).
    static func cancelAfterBegin(_ test: T.TestService.Client) async throws {
        let call = Task {
            try await test.streamingInputCall { _ in try await Task.sleep(for: .seconds(30)) }
        }
        call.cancel()
        do {
            _ = try await call.value
            throw InteropFailure("the cancelled call succeeded")
        } catch let error as RPCError {
            try check(error.code == .cancelled, "status \(error.code), expected CANCELLED")
        } catch is CancellationError {
            // Cancelled before the stream opened: also a cancelled call.
        }
    }

    static func cancelAfterFirstResponse(_ test: T.TestService.Client) async throws {
        let (first, gotFirst) = AsyncStream.makeStream(of: Void.self)
        let call = Task {
            try await test.fullDuplexCall(
                requestProducer: { writer in
                    try await writer.write(
                        T.StreamingOutputCallRequest(
                            responseParameters: [T.ResponseParameters(size: 31415)], payload: zeros(27182)))
                    try await Task.sleep(for: .seconds(30))
                },
                onResponse: { responses in
                    for try await response in responses {
                        try check(response.payload?.body.count == 31415, "first reply size")
                        gotFirst.yield()
                    }
                })
        }
        for await _ in first { break }
        call.cancel()
        do {
            try await call.value
            throw InteropFailure("the cancelled call succeeded")
        } catch let error as RPCError {
            try check(error.code == .cancelled, "status \(error.code), expected CANCELLED")
        } catch is CancellationError {
        }
    }

    static func timeoutOnSleepingServer(_ test: T.TestService.Client) async throws {
        try await expectStatus(.deadlineExceeded) {
            try await test.fullDuplexCall(
                options: CallOptions(timeout: .milliseconds(1)),
                requestProducer: { writer in
                    try await writer.write(T.StreamingOutputCallRequest(payload: zeros(27182)))
                    try await Task.sleep(for: .seconds(5))
                },
                onResponse: { responses in
                    for try await _ in responses {}
                })
        }
    }
}
