#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP2
import NIOCore
import Synchronization

/// The handler the tests serve; each path is one behaviour:
/// - `/echo`, `/3/device/<token>`: 200 with an `apns-id` header (and one named with
///   capitals, which must go out lowercased) and the request described as JSON;
/// - `/hold`: waits for `hold` to open (`/release` opens it); `/barrier`: waits until
///   `barrier`'s count of requests are all running;
/// - `/goaway`: 503 `{"reason":"Shutdown"}` and GOAWAY after it;
/// - `/throw`: throws; `/forbidden-header`: answers with a `connection` field;
///   `/no-content`: 204 with a body (which must not go out);
/// - a body too large: 413 `{"reason":"PayloadTooLarge"}`; anything else: 404 BadPath.
final class TestHandler: HTTP2Handler {
    struct Failure: Error {}

    let hold = Gate()
    let barrier: Gate
    private let seen = Mutex<[HTTP2Request]>([])
    private let closed = Mutex<[UInt64]>([])

    init(barrierCount: Int = 200) {
        barrier = Gate(opensAt: barrierCount)
    }

    /// Every request handled so far, in the order the handler got them.
    var requests: [HTTP2Request] { seen.withLock { $0 } }
    var closedConnections: [UInt64] { closed.withLock { $0 } }

    func handle(_ request: HTTP2Request) async throws -> HTTP2Response {
        seen.withLock { $0.append(request) }
        if request.bodyTooLarge { return Self.reason(413, "PayloadTooLarge") }
        switch request.path {
        case "/echo":
            return Self.echo(request)
        case _ where request.path.hasPrefix("/3/device/"):
            return Self.echo(request)
        case "/hold":
            await hold.pass()
            return HTTP2Response(status: 200, body: Array("held".utf8))
        case "/release":
            hold.open()
            return HTTP2Response(status: 200)
        case "/barrier":
            await barrier.pass()
            return HTTP2Response(status: 200)
        case "/goaway":
            var response = Self.reason(503, "Shutdown")
            response.goAway = HTTP2GoAway(debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
            return response
        case "/throw":
            throw Failure()
        case "/forbidden-header":
            return HTTP2Response(status: 200, headers: [("connection", "close")], body: Array("no".utf8))
        case "/no-content":
            return HTTP2Response(status: 204, headers: [("x-kind", "empty")], body: Array("dropped".utf8))
        default:
            return Self.reason(404, "BadPath")
        }
    }

    func connectionClosed(_ connection: HTTP2ConnectionInfo) {
        closed.withLock { $0.append(connection.id) }
    }

    static func reason(_ status: Int, _ reason: String) -> HTTP2Response {
        HTTP2Response(
            status: status, headers: [("content-type", "application/json")],
            body: Array(#"{"reason":"\#(reason)"}"#.utf8))
    }

    static func echo(_ request: HTTP2Request) -> HTTP2Response {
        let description = Echo(
            method: request.method, path: request.path, authority: request.authority, scheme: request.scheme,
            headers: request.headers.map { [$0.name, $0.value] }, body: String(decoding: request.body, as: UTF8.self),
            bodyCount: request.body.count, bodyTooLarge: request.bodyTooLarge, tls: request.connection.isTLS,
            alpn: request.connection.alpn, connection: request.connection.id,
            peerHost: request.connection.peer?.ipAddress)
        return HTTP2Response(
            status: 200,
            headers: [
                ("apns-id", "6E0F0E6A-7B1B-4A3A-9C1F-2D8E7A5B4C3D"), ("X-Echo-Count", String(request.headers.count)),
                ("content-type", "application/json"),
            ],
            body: Array((try? JSONEncoder().encode(description)) ?? Data()))
    }
}

/// What `/echo` answers: the request as the handler saw it.
struct Echo: Codable, Equatable {
    var method: String
    var path: String
    var authority: String?
    var scheme: String
    var headers: [[String]]
    var body: String
    var bodyCount: Int
    var bodyTooLarge: Bool
    var tls: Bool
    var alpn: String?
    var connection: UInt64
    var peerHost: String?

    /// The first value of the header `name` the server received.
    func header(_ name: String) -> String? { headers.first { $0[0] == name }?[1] }
}
