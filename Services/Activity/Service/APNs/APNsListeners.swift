package import HTTP2
package import Logging
import NIOCore
import ServiceLifecycle

/// The APNs-compatible endpoint on HTTP/2: each request stream goes to `APNsEndpoint`,
/// and a connection's provider token is forgotten when it closes. Pushes that arrive
/// together are journaled in one commit and answered on it; widget pushes (answered once
/// their reload is asked) and channel management are answered request by request.
package struct APNsHTTP2Handler: HTTP2BatchHandler {
    let endpoint: APNsEndpoint

    package init(endpoint: APNsEndpoint) {
        self.endpoint = endpoint
    }

    package func handle(_ request: HTTP2Request) async throws -> HTTP2Response {
        Self.response(await endpoint.respond(to: Self.apnsRequest(request)))
    }

    package func handle(
        batch requests: [HTTP2Request], answer: @escaping @Sendable (Int, HTTP2Response) -> Void
    ) async {
        var pushes: [APNsEndpoint.PushIntake] = []
        var pushIndices: [Int] = []
        pushes.reserveCapacity(requests.count)
        pushIndices.reserveCapacity(requests.count)
        await withDiscardingTaskGroup { group in
            for (index, request) in requests.enumerated() {
                let apns = Self.apnsRequest(request)
                switch endpoint.intake(apns) {
                case .push(let push) where push.answerFollowsEffects:
                    group.addTask { answer(index, Self.response(await endpoint.respond(toPush: push))) }
                case .push(let push):
                    pushes.append(push)
                    pushIndices.append(index)
                case .answered(let response):
                    answer(index, Self.response(response))
                case .channels(let bundle, let all, let tokenAccepted):
                    group.addTask {
                        var response = await endpoint.channels(apns, bundle: bundle, all: all)
                        response.tokenAccepted = tokenAccepted
                        answer(index, Self.response(response))
                    }
                }
            }
            guard !pushes.isEmpty else { return }
            for (index, response) in zip(pushIndices, await endpoint.respond(toPushes: pushes)) {
                answer(index, Self.response(response))
            }
        }
    }

    static func apnsRequest(_ request: HTTP2Request) -> APNsRequest {
        APNsRequest(
            method: request.method, path: request.path,
            headers: request.headers.map { (name: $0.name, value: $0.value) }, body: request.body,
            bodyTooLarge: request.bodyTooLarge, connection: String(request.connection.id))
    }

    static func response(_ answer: APNsResponse) -> HTTP2Response {
        var headers = HTTP2Headers()
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { headers.append(name: name, value: value) }
        if !answer.body.isEmpty { headers.append(name: "content-type", value: "application/json") }
        // Apple's GOAWAY carries the reason as JSON too.
        let goAway = answer.goaway ? HTTP2GoAway(errorCode: 0, debugData: answer.body) : nil
        return HTTP2Response(
            status: answer.status, headers: headers, body: answer.body, goAway: goAway,
            trustsConnection: answer.tokenAccepted)
    }

    package func connectionClosed(_ connection: HTTP2ConnectionInfo) {
        endpoint.forget(connection: String(connection.id))
    }
}

/// The endpoint's listeners (TLS and h2c) as a lifecycle service: prints each listener's
/// port once bound, and on graceful shutdown sends GOAWAY and lets pushes in flight finish.
package struct APNsServerService: Service {
    let server: HTTP2Server
    let names: [String]
    let logger: Logger
    let listening: @Sendable ([(name: String, port: Int)]) async -> Void

    /// `names` label `server.listeners` in order (e.g. "apns-tls", "apns-h2c"); `listening`
    /// is told their ports once all are bound.
    package init(
        server: HTTP2Server, names: [String], logger: Logger,
        listening: @escaping @Sendable ([(name: String, port: Int)]) async -> Void
    ) {
        self.server = server
        self.names = names
        self.logger = logger
        self.listening = listening
    }

    package func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await server.run() }
                let addresses = try await server.listeningAddresses()
                await listening(zip(names, addresses).map { (name: $0, port: $1.port ?? 0) })
            }
        } onGracefulShutdown: {
            logger.info("APNs endpoint shutting down: GOAWAY, waiting for pushes in flight")
            server.beginGracefulShutdown()
        }
    }
}
