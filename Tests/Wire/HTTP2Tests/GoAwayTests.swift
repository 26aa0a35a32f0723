import Foundation
import HTTP2
import Testing

/// A response that asks for GOAWAY: the answer arrives whole, then the GOAWAY, streams
/// already open finish, then the connection closes.
@Suite(.timeLimit(.minutes(2)))
struct GoAwayTests {
    @Test(arguments: [false, true])
    func theAnswerComesThenGoAwayThenTheConnectionCloses(tls: Bool) async throws {
        let certificates = try makeCertificates()
        let listener: HTTP2Listener = tls ? .tls(port: 0, certificates: certificates.server) : .cleartext(port: 0)
        let security = tls ? ["--tls", "--ca", certificates.caCertificate] : []
        try await withServer([listener]) { server in
            let result = try await Peers.h2Peer("goaway", port: server.port, ["--path", "/goaway"] + security)
            let stream = try #require(result["stream"] as? Int)
            let answer = try #require(result["result"] as? [String: Any])
            #expect(answer["status"] as? Int == 503)
            #expect(answer["body"] as? String == #"{"reason":"Shutdown"}"#)
            #expect(answer["ended"] as? Bool == true)

            let goAway = try #require(result["goaway"] as? [String: Any])
            #expect(goAway["error_code"] as? Int == 0)
            #expect(goAway["last_stream_id"] as? Int == stream)
            #expect(goAway["debug"] as? String == #"{"reason":"Shutdown"}"#)

            let events = try #require(result["events"] as? [[Any]]).map { $0.first as? String ?? "" }
            let ended = try #require(events.firstIndex(of: "ended"))
            let goAwayAt = try #require(events.firstIndex(of: "goaway"))
            #expect(ended < goAwayAt)
            #expect(events.last == "closed")  // the server closed the connection

            // The server goes on with new connections.
            let next = try await Peers.h2Peer("request", port: server.port, ["--path", "/echo"] + security)
            #expect(next["status"] as? Int == 200)
        }
    }

    @Test func aStreamAlreadyOpenStillGetsItsAnswerAfterTheGoAway() async throws {
        try await withServer { server in
            // /hold (stream 1) waits; /goaway (stream 3) is answered with GOAWAY; only when
            // the client has the GOAWAY does it release /hold, from a second connection.
            let result = try await Peers.h2Peer(
                "goaway-in-flight", port: server.port,
                [
                    "--path", "/hold", "--fault-path", "/goaway", "--release-path", "/release",
                ])
            let waiting = try #require(result["waiting"] as? [String: Any])
            let fault = try #require(result["fault"] as? [String: Any])
            #expect(fault["status"] as? Int == 503)
            #expect(waiting["status"] as? Int == 200)
            #expect(waiting["body"] as? String == "held")
            let goAway = try #require(result["goaway"] as? [String: Any])
            #expect(goAway["last_stream_id"] as? Int == result["fault_stream"] as? Int)

            let events = try #require(result["events"] as? [[Any]])
            func index(_ kind: String, _ stream: Int? = nil) -> Int? {
                events.firstIndex {
                    $0.first as? String == kind && (stream == nil || $0.dropFirst().first as? Int == stream)
                }
            }
            let waitingStream = try #require(result["waiting_stream"] as? Int)
            let faultStream = try #require(result["fault_stream"] as? Int)
            let order = [
                index("ended", faultStream), index("goaway"), index("response", waitingStream),
                index("ended", waitingStream), index("closed"),
            ]
            #expect(order.allSatisfy { $0 != nil }, "\(events)")
            #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(events)")
        }
    }
}
