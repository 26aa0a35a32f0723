import Foundation
import HTTP2
import NIOCore
import Synchronization
import Testing

/// A handler that takes what arrived together at once (`HTTP2BatchHandler`): every request
/// is answered once, by the handler or, when it leaves one, 500.
@Suite(.timeLimit(.minutes(2)))
struct BatchHandlerTests {
    @Test func everyRequestOfEveryGroupIsAnsweredWithItsOwnResponse() async throws {
        let handler = GroupingHandler()
        try await withBatchServer(handler) { port in
            let result = try await Peers.h2Peer("concurrent", port: port, ["--path", "/answer", "--count", "60"])
            #expect((result["statuses"] as? [Int]) == Array(repeating: 200, count: 60))
        }
        // Each request reached the handler once, in some group.
        #expect(handler.groups.reduce(0, +) == 60)
    }

    @Test func aRequestTheHandlerLeavesIsAnswered500() async throws {
        try await withBatchServer(GroupingHandler()) { port in
            let response = try await Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(port)/unanswered"])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 500)
        }
    }

    @Test func aSecondAnswerToOneRequestIsDropped() async throws {
        try await withBatchServer(GroupingHandler()) { port in
            let response = try await Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(port)/twice"])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 201)
            #expect(response.text == "first")
        }
    }
}

/// Answers `/answer` 200 with its path, `/twice` 201 then 202, and leaves anything else.
private final class GroupingHandler: HTTP2BatchHandler {
    private let sizes = Mutex<[Int]>([])
    /// The size of each group the server handed over.
    var groups: [Int] { sizes.withLock { $0 } }

    func handle(_ request: HTTP2Request) async throws -> HTTP2Response {
        HTTP2Response(status: 200, body: Array(request.path.utf8))
    }

    func handle(batch requests: [HTTP2Request], answer: @escaping @Sendable (Int, HTTP2Response) -> Void) async {
        sizes.withLock { $0.append(requests.count) }
        for (index, request) in requests.enumerated() {
            switch request.path {
            case "/answer":
                answer(index, HTTP2Response(status: 200, body: Array(request.path.utf8)))
            case "/twice":
                answer(index, HTTP2Response(status: 201, body: Array("first".utf8)))
                answer(index, HTTP2Response(status: 202, body: Array("second".utf8)))
            default:
                break
            }
        }
    }
}

private func withBatchServer(_ handler: GroupingHandler, _ body: (Int) async throws -> Void) async throws {
    let server = HTTP2Server(listeners: [.cleartext(port: 0)], handler: handler)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            try await body(try await server.listeningAddresses()[0].port!)
            server.beginGracefulShutdown()
            try await group.next()
        } catch {
            group.cancelAll()
            throw error
        }
    }
}
