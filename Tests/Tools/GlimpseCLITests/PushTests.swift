import Crypto
import Foundation
import GlimpseCLI
import GlimpseJSON
import GlimpseMessages
import HTTP2
import NIOCore
import Synchronization
import Testing

@Suite("push: provider tokens, targets, and the HTTP/2 request itself")
struct PushTests {
    static func base64URL(_ text: Substring) -> [UInt8] {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while base64.count % 4 != 0 { base64 += "=" }
        return Array(Data(base64Encoded: base64)!)
    }

    @Test("an ES256 provider token: kid, iss, iat, and a signature the key's public half verifies")
    func providerToken() throws {
        let key = P256.Signing.PrivateKey()
        let token = try ProviderToken.make(
            teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: key.pemRepresentation, issuedAt: 1_767_258_000)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try JSONParser.parse(Self.base64URL(parts[0]))
        let claims = try JSONParser.parse(Self.base64URL(parts[1]))
        #expect(header["alg"]?.stringValue == "ES256")
        #expect(header["kid"]?.stringValue == "KEY1234567")
        #expect(claims["iss"]?.stringValue == "TEAM123456")
        #expect(claims["iat"] == .number("1767258000"))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.base64URL(parts[2]))
        #expect(key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(
            !P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(throws: ProviderToken.Failure.self) {
            try ProviderToken.make(teamID: "T", keyID: "K", privateKeyPEM: "not a key", issuedAt: 0)
        }
        #expect(throws: CLIFailure.self) { try ProviderToken.KeySpec(parsing: "TEAM:KEY") }
        #expect(try ProviderToken.KeySpec(parsing: "TEAM:KEY:/keys/a:b.p8").path == "/keys/a:b.p8")
    }

    @Test("targets: a device token, or a bundle's only activity with a token")
    func targets() throws {
        #expect(PushTarget.isDeviceToken("0123456789abcdef0123456789ABCDEF"))
        #expect(!PushTarget.isDeviceToken("com.example.pizza"))
        #expect(!PushTarget.isDeviceToken("abc"))
        var first = GlimpseActivityV1.Activity()
        first.activityId = "A1"
        first.pushToken = "aa11"
        first.state = .active
        var ended = first
        ended.activityId = "A0"
        ended.pushToken = "ff00"
        ended.state = .ended
        var tokenless = first
        tokenless.activityId = "A2"
        tokenless.pushToken = ""
        #expect(try PushTarget.pickToken(bundle: "com.x", [ended, first, tokenless]) == "aa11")
        var second = first
        second.activityId = "A3"
        second.pushToken = "bb22"
        let many = try #require(throws: CLIFailure.self) { try PushTarget.pickToken(bundle: "com.x", [first, second]) }
        #expect(many.description.contains("A1 (aa11), A3 (bb22)"))
        #expect(throws: CLIFailure.self) { try PushTarget.pickToken(bundle: "com.x", [tokenless]) }
        #expect(PushTarget.parseTime("1767258000") == 1_767_258_000)
        #expect(PushTarget.parseTime("2026-01-01T09:00:00Z") == 1_767_258_000)
        #expect(PushTarget.parseTime("soon") == nil)
    }

    /// An HTTP/2 server that records requests and answers as `answer` says.
    final class Recorder: Sendable {
        let requests = Mutex<[HTTP2Request]>([])
    }

    static func withServer(
        tls: LocalCertificateAuthority.Files? = nil,
        answer: @escaping @Sendable (HTTP2Request) -> HTTP2Response,
        _ body: (Int, Recorder) async throws -> Void
    ) async throws {
        let recorder = Recorder()
        let listener: HTTP2Listener = tls.map { .tls(port: 0, certificates: $0.server) } ?? .cleartext(port: 0)
        let server = HTTP2Server(
            listeners: [listener],
            handler: HTTP2ClosureHandler { request in
                recorder.requests.withLock { $0.append(request) }
                return answer(request)
            })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let port = try await server.listeningAddresses()[0].port!
            do {
                try await body(port, recorder)
            } catch {
                server.beginGracefulShutdown()
                throw error
            }
            server.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }

    static func file(_ contents: String, named name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "glimpse-push-\(UUID().uuidString)-\(name)"
        ).path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("h2c: the POST Apple's provider API expects, and Apple's answer printed")
    func cleartext() async throws {
        let payload = try Self.file(
            #"{"aps":{"timestamp":1767258000,"event":"update","content-state":{"eta":10}}}"#, named: "payload.json")
        let key = P256.Signing.PrivateKey()
        let keyFile = try Self.file(key.pemRepresentation, named: "AuthKey.p8")
        try await Self.withServer(answer: { _ in
            HTTP2Response(status: 200, headers: [("apns-id", "5E2F0C1A-0000-4000-8000-000000000001")])
        }) { port, recorder in
            let out = CapturedOutput(), err = CapturedOutput()
            let status = await GlimpseTool.run(
                arguments: [
                    "push", "0123456789abcdef0123456789abcdef", payload, "--apns-address", "127.0.0.1:\(port)",
                    "--topic", "com.example.pizza.push-type.liveactivity", "--priority", "5",
                    "--key", "TEAM123456:KEY1234567:\(keyFile)", "--iat", "1767258000",
                ],
                output: out, errorOutput: err)
            #expect(status == 0, "\(err.text)")
            #expect(out.text == "200  apns-id 5E2F0C1A-0000-4000-8000-000000000001\n")
            let request = try #require(recorder.requests.withLock { $0.first })
            #expect(request.method == "POST")
            #expect(request.path == "/3/device/0123456789abcdef0123456789abcdef")
            #expect(request.headers["apns-push-type"] == "liveactivity")
            #expect(request.headers["apns-topic"] == "com.example.pizza.push-type.liveactivity")
            #expect(request.headers["apns-priority"] == "5")
            #expect(String(decoding: request.body, as: UTF8.self).contains("\"content-state\""))
            let authorization = try #require(request.headers["authorization"])
            #expect(authorization.hasPrefix("bearer "))
            let claims = try JSONParser.parse(
                Self.base64URL(authorization.dropFirst("bearer ".count).split(separator: ".")[1]))
            #expect(claims["iat"] == .number("1767258000"))
        }
    }

    @Test("an error status: its reason printed, exit 1; --json gives status, reason and apns-id")
    func refused() async throws {
        let payload = try Self.file(#"{"aps":{}}"#, named: "payload.json")
        try await Self.withServer(answer: { _ in
            HTTP2Response(
                status: 410, headers: [("apns-id", "id-1")],
                body: Array(#"{"reason":"Unregistered","timestamp":1767258000000}"#.utf8))
        }) { port, recorder in
            let out = CapturedOutput(), err = CapturedOutput()
            let status = await GlimpseTool.run(
                arguments: [
                    "push", "com.example.pizza", payload, "--broadcast", "--channel", "dHVuYQ==", "--apns-address",
                    "127.0.0.1:\(port)",
                ],
                output: out, errorOutput: err)
            #expect(status == 1)
            #expect(out.text == "410 Unregistered (token invalid since 1767258000000 ms)  apns-id id-1\n")
            #expect(err.text == "error: APNs answered 410 Unregistered\n")
            let request = try #require(recorder.requests.withLock { $0.first })
            #expect(request.path == "/4/broadcasts/apps/com.example.pizza")
            #expect(request.headers["apns-channel-id"] == "dHVuYQ==")

            let json = CapturedOutput()
            let again = await GlimpseTool.run(
                arguments: [
                    "push", "com.example.pizza", payload, "--broadcast", "--channel", "dHVuYQ==", "--apns-address",
                    "127.0.0.1:\(port)", "--json",
                ],
                output: json, errorOutput: CapturedOutput())
            #expect(again == 1)
            #expect(
                json.text
                    == #"{"status":410,"path":"/4/broadcasts/apps/com.example.pizza","reason":"Unregistered","timestamp":1767258000000,"apnsId":"id-1"}"#
                    + "\n")
        }
    }

    @Test("TLS with ALPN h2, trusting the endpoint's local CA")
    func tls() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "glimpse-push-tls-\(UUID().uuidString)"
        ).path
        let certificates = try LocalCertificateAuthority.prepare(in: directory)
        let payload = try Self.file(#"{"aps":{"content-changed":true}}"#, named: "payload.json")
        try await Self.withServer(
            tls: certificates,
            answer: { request in
                HTTP2Response(status: request.connection.alpn == "h2" ? 200 : 500, headers: [("apns-id", "tls-1")])
            }
        ) { port, _ in
            let out = CapturedOutput(), err = CapturedOutput()
            let status = await GlimpseTool.run(
                arguments: [
                    "push", "0123456789abcdef", payload, "--push-type", "widgets", "--topic", "com.x.push-type.widgets",
                    "--tls", "--ca", certificates.caCertificate, "--apns-address", "127.0.0.1:\(port)",
                ],
                output: out, errorOutput: err)
            #expect(status == 0, "\(err.text)")
            #expect(out.text == "200  apns-id tls-1\n")
            // Without the CA the endpoint's certificate is not trusted.
            let untrusted = CapturedOutput()
            let refused = await GlimpseTool.run(
                arguments: [
                    "push", "0123456789abcdef", payload, "--topic", "t", "--tls", "--apns-address", "127.0.0.1:\(port)",
                ],
                output: CapturedOutput(), errorOutput: untrusted)
            #expect(refused == 3)
            #expect(untrusted.text.contains("certificate is not trusted; give its CA with --ca"))
        }
    }

    @Test("no endpoint listening: exit 3; a payload that is not JSON: exit 2")
    func failures() async throws {
        let payload = try Self.file(#"{"aps":{}}"#, named: "payload.json")
        let err = CapturedOutput()
        let status = await GlimpseTool.run(
            arguments: ["push", "0123456789abcdef", payload, "--topic", "t", "--apns-address", "127.0.0.1:1"],
            output: CapturedOutput(), errorOutput: err)
        #expect(status == 3)
        #expect(err.text.hasPrefix("error: cannot reach the APNs endpoint at 127.0.0.1:1"))
        let bad = try Self.file("{aps", named: "bad.json")
        let badErr = CapturedOutput()
        #expect(
            await GlimpseTool.run(
                arguments: ["push", "0123456789abcdef", bad, "--topic", "t"], output: CapturedOutput(),
                errorOutput: badErr) == 2)
        #expect(badErr.text.contains("invalid JSON"))
    }
}
