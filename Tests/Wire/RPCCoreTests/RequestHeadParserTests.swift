import RPCCore
import Testing

@Suite("Request headers on the server")
struct RequestHeadParserTests {
    static let valid: KeyValuePairs<String, String> = [
        ":method": "POST", ":scheme": "http", ":path": "/pkg.Svc/Method", ":authority": "localhost",
        "content-type": "application/grpc", "te": "trailers",
    ]

    func parse(
        _ fields: KeyValuePairs<String, String>, extra: [(String, String)] = [], limit: Int = 8192
    )
        -> Result<RequestHead, RequestRejection>
    {
        var parser = RequestHeadParser(maxHeaderListSize: limit)
        for (name, value) in fields { parser.add(name: name, value: value) }
        for (name, value) in extra { parser.add(name: name, value: value) }
        return parser.finish()
    }

    @Test func acceptsAGRPCRequest() throws {
        let head = try parse(Self.valid, extra: [("x-user", "ada"), ("grpc-timeout", "5S")]).get()
        #expect(head.path == "/pkg.Svc/Method")
        #expect(head.timeout == .seconds(5))
        #expect(head.metadata[stringValues: "x-user"] == ["ada"])
        #expect(
            head.metadata["te"].isEmpty && head.metadata["content-type"].isEmpty, "transport headers are not metadata")
    }

    @Test(arguments: [
        "application/grpc", "application/grpc+proto", "application/grpc+json", "application/grpc;charset=utf-8",
    ])
    func acceptsGRPCContentTypes(_ contentType: String) throws {
        var fields = Array(Self.valid.filter { $0.key != "content-type" })
        fields.append(("content-type", contentType))
        var parser = RequestHeadParser(maxHeaderListSize: 8192)
        for (name, value) in fields { parser.add(name: name, value: value) }
        _ = try parser.finish().get()
    }

    @Test(arguments: ["application/json", "text/plain", "application/grpcx", "application/grp", ""])
    func answersOtherContentTypesWith415(_ contentType: String) {
        var parser = RequestHeadParser(maxHeaderListSize: 8192)
        for (name, value) in Self.valid where name != "content-type" { parser.add(name: name, value: value) }
        if !contentType.isEmpty { parser.add(name: "content-type", value: contentType) }
        guard case .failure(let rejection) = parser.finish() else { Issue.record("accepted"); return }
        #expect(rejection.httpStatus == 415)
    }

    @Test func answersOtherMethodsWith405() {
        var parser = RequestHeadParser(maxHeaderListSize: 8192)
        for (name, value) in Self.valid { parser.add(name: name, value: name == ":method" ? "GET" : value) }
        guard case .failure(let rejection) = parser.finish() else { Issue.record("accepted"); return }
        #expect(rejection.httpStatus == 405)
    }

    @Test func refusesAnEncodingWeDoNotSupportAndSaysWhichWeDo() {
        guard case .failure(let rejection) = parse(Self.valid, extra: [("grpc-encoding", "gzip")]) else {
            Issue.record("accepted"); return
        }
        #expect(rejection.httpStatus == 200)
        #expect(rejection.status.code == .unimplemented)
        #expect(rejection.advertiseAcceptedEncodings)
    }

    @Test func acceptsIdentityEncoding() throws {
        _ = try parse(Self.valid, extra: [("grpc-encoding", "identity")]).get()
    }

    @Test(arguments: ["", "S", "1x", "123456789S"])
    func refusesAMalformedTimeout(_ value: String) {
        guard case .failure(let rejection) = parse(Self.valid, extra: [("grpc-timeout", value)]) else {
            Issue.record("accepted"); return
        }
        #expect(rejection.status.code == .internal)
    }

    @Test func decodesBinaryMetadataPaddedOrNot() throws {
        let head = try parse(Self.valid, extra: [("a-bin", "AAEC"), ("b-bin", "AAE="), ("c-bin", "AAE")]).get()
        #expect(head.metadata[binaryValues: "a-bin"] == [[0, 1, 2]])
        #expect(head.metadata[binaryValues: "b-bin"] == [[0, 1]])
        #expect(head.metadata[binaryValues: "c-bin"] == [[0, 1]])
    }

    @Test func refusesBinaryMetadataThatIsNotBase64() {
        guard case .failure(let rejection) = parse(Self.valid, extra: [("x-bin", "!!!")]) else {
            Issue.record("accepted"); return
        }
        #expect(rejection.status.code == .internal)
    }

    @Test func refusesAHeaderListOverTheLimit() {
        let big = String(repeating: "v", count: 600)
        guard case .failure(let rejection) = parse(Self.valid, extra: [("x-big", big)], limit: 512) else {
            Issue.record("accepted"); return
        }
        #expect(rejection.status.code == .resourceExhausted)
    }

    @Test func countsTheHeaderListAsHTTP2Does() {
        var parser = RequestHeadParser(maxHeaderListSize: 8192)
        parser.add(name: "ab", value: "cde")
        #expect(parser.size == 2 + 3 + 32)
    }
}
