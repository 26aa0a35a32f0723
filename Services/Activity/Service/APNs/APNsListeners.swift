package import HTTP2
package import Logging
import NIOCore
import ServiceLifecycle

/// The APNs-compatible endpoint on HTTP/2: each request stream goes to the `APNsEndpoint` of
/// the device it is for (`APNsDevices`), and a connection's provider token is forgotten when
/// it closes. Pushes that arrive together are journaled in one commit per device and
/// answered on it; widget pushes (answered once their reload is asked) and channel
/// management are answered request by request.
package struct APNsHTTP2Handler: HTTP2BatchHandler {
    let devices: APNsDevices

    package init(endpoint: APNsEndpoint) {
        self.init(devices: APNsDevices(default: endpoint))
    }

    package init(devices: APNsDevices) {
        self.devices = devices
    }

    package func handle(_ request: HTTP2Request) async throws -> HTTP2Response {
        let apns = Self.apnsRequest(request)
        return Self.response(await devices.endpoint(for: apns).endpoint.respond(to: apns))
    }

    package func handle(
        batch requests: [HTTP2Request], answer: @escaping @Sendable (Int, HTTP2Response) -> Void
    ) async {
        // Per endpoint (device), in arrival order: its pushes and their indices.
        var groups: [(device: String?, endpoint: APNsEndpoint, pushes: [APNsEndpoint.PushIntake], indices: [Int])] =
            []
        await withDiscardingTaskGroup { group in
            for (index, request) in requests.enumerated() {
                let apns = Self.apnsRequest(request)
                let (device, endpoint) = devices.endpoint(for: apns)
                switch endpoint.intake(apns) {
                case .push(let push) where push.answerFollowsEffects:
                    group.addTask { answer(index, Self.response(await endpoint.respond(toPush: push))) }
                case .push(let push):
                    if let at = groups.firstIndex(where: { $0.device == device }) {
                        groups[at].pushes.append(push)
                        groups[at].indices.append(index)
                    } else {
                        groups.append((device, endpoint, [push], [index]))
                    }
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
            for (_, endpoint, pushes, indices) in groups {
                group.addTask {
                    for (index, response) in zip(indices, await endpoint.respond(toPushes: pushes)) {
                        answer(index, Self.response(response))
                    }
                }
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
        // The provider tokens are the stack's (every device's endpoint shares them).
        devices.fallback.forget(connection: String(connection.id))
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
