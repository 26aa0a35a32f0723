import Foundation
import HTTP2
import Testing

/// TLS listeners with the generated local CA: ALPN h2, and HTTP/2 without ALPN.
@Suite(.timeLimit(.minutes(2)))
struct TLSTests {
    @Test func curlOverTLSNegotiatesH2AndTrustsTheLocalCA() async throws {
        let certificates = try makeCertificates()
        try await withServer([.tls(port: 0, certificates: certificates.server)]) { server in
            let port = server.port
            // By name (SAN localhost) and by address (SAN 127.0.0.1).
            for url in ["https://localhost:\(port)/echo", "https://127.0.0.1:\(port)/echo"] {
                let response = try await Peers.curl([
                    "--cacert", certificates.caCertificate, "--resolve", "localhost:\(port):127.0.0.1", url,
                ])
                #expect(response.exitCode == 0, "\(url): \(response.stderr)")
                #expect(response.httpVersion == "2")
                #expect(response.status == 200)
                let echo = try JSONDecoder().decode(Echo.self, from: Data(response.body))
                #expect(echo.tls && echo.alpn == "h2" && echo.scheme == "https")
            }
        }
    }

    @Test func theCertificateCoversIPv6Loopback() async throws {
        let certificates = try makeCertificates()
        try await withServer([.tls(host: "::1", port: 0, certificates: certificates.server)]) { server in
            let response = try await Peers.curl([
                "--cacert", certificates.caCertificate, "https://[::1]:\(server.port)/echo",
            ])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 200 && response.httpVersion == "2")
            let echo = try JSONDecoder().decode(Echo.self, from: Data(response.body))
            #expect(echo.peerHost == "::1")
        }
    }

    @Test func aClientThatDoesNotTrustTheCAIsRefused() async throws {
        let certificates = try makeCertificates()
        try await withServer([.tls(port: 0, certificates: certificates.server)]) { server in
            let refused = try await Peers.curl(["https://127.0.0.1:\(server.port)/echo"])
            #expect(refused.exitCode != 0)  // not trusted: the handshake fails
            #expect(server.handler.requests.isEmpty)
            let trusted = try await Peers.curl([
                "--cacert", certificates.caCertificate, "https://127.0.0.1:\(server.port)/echo",
            ])
            #expect(trusted.status == 200)  // the failed handshake cost that connection only
        }
    }

    @Test func withoutALPNTheConnectionStillSpeaksHTTP2() async throws {
        let certificates = try makeCertificates()
        try await withServer([.tls(port: 0, certificates: certificates.server)]) { server in
            let result = try await Peers.h2Peer(
                "request", port: server.port,
                [
                    "--tls", "--no-alpn", "--ca", certificates.caCertificate, "--method", "POST",
                    "--path", "/3/device/ffee", "--header", "apns-topic:com.example.app", "--body", #"{"aps":{}}"#,
                ])
            #expect(result["alpn"] is NSNull)  // the client offered none, and none was chosen
            #expect(result["status"] as? Int == 200)
            let echo = try JSONDecoder().decode(Echo.self, from: Data(try #require(result["body"] as? String).utf8))
            #expect(echo.tls && echo.alpn == nil)
            #expect(echo.header("apns-topic") == "com.example.app")
            #expect(echo.body == #"{"aps":{}}"#)
        }
    }

    @Test func pythonWithALPNAndHttpxBothGetH2() async throws {
        let certificates = try makeCertificates()
        try await withServer([.tls(port: 0, certificates: certificates.server)]) { server in
            let raw = try await Peers.h2Peer(
                "request", port: server.port,
                [
                    "--tls", "--ca", certificates.caCertificate, "--path", "/echo",
                ])
            #expect(raw["alpn"] as? String == "h2")
            #expect(raw["status"] as? Int == 200)

            let httpx = try await Peers.h2Peer(
                "httpx", port: server.port,
                [
                    "--ca", certificates.caCertificate, "--method", "POST", "--path", "/3/device/aa",
                    "--header", "apns-push-type:widgets", "--body", #"{"aps":{"content-changed":true}}"#,
                ])
            #expect(httpx["http_version"] as? String == "HTTP/2")
            #expect(httpx["status"] as? Int == 200)
            let echo = try JSONDecoder().decode(Echo.self, from: Data(try #require(httpx["body"] as? String).utf8))
            #expect(echo.alpn == "h2")
            #expect(echo.header("apns-push-type") == "widgets")
            #expect(echo.body == #"{"aps":{"content-changed":true}}"#)
        }
    }

    @Test func oneServerServesCleartextAndTLSListenersTogether() async throws {
        let certificates = try makeCertificates()
        try await withServer([.cleartext(port: 0), .tls(port: 0, certificates: certificates.server)]) { server in
            #expect(server.ports.count == 2 && server.ports[0] != server.ports[1])
            let clear = try await Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.ports[0])/echo"])
            let secure = try await Peers.curl([
                "--cacert", certificates.caCertificate, "https://127.0.0.1:\(server.ports[1])/echo",
            ])
            #expect(clear.status == 200 && secure.status == 200)
            let echoes = try [clear, secure].map { try JSONDecoder().decode(Echo.self, from: Data($0.body)) }
            #expect(echoes.map(\.tls) == [false, true])
        }
    }

    @Test func missingCertificateFilesFailRunAndListeningAddresses() async throws {
        let missing = temporaryDirectory("missing").path
        let server = HTTP2Server(
            listeners: [
                .cleartext(port: 0),
                .tls(
                    port: 0,
                    certificates: .init(
                        certificateChain: missing + "/server.pem", privateKey: missing + "/server-key.pem")),
            ],
            handler: TestHandler())
        await #expect(throws: (any Error).self) { try await server.run() }
        await #expect(throws: (any Error).self) { _ = try await server.listeningAddresses() }
    }
}
