import RPCCore
import Testing

@Suite("Response headers and trailers on the client")
struct ResponseHeadParserTests {
    func verdict(
        _ block: ResponseHeadParser.Block, _ fields: [(String, String)], endStream: Bool
    )
        -> ResponseHeadParser.Verdict
    {
        var parser = ResponseHeadParser(block: block, maxHeaderListSize: 8192)
        for (name, value) in fields { parser.add(name: name, value: value) }
        return parser.finish(endStream: endStream)
    }

    @Test func initialHeadersCarryMetadata() {
        let result = verdict(
            .headers, [(":status", "200"), ("content-type", "application/grpc"), ("x-a", "1")], endStream: false)
        #expect(result == .metadata(Metadata(["x-a": "1"])))
    }

    @Test func trailersCarryStatusDecodedMessageAndMetadata() {
        var expected = Metadata()
        expected.addBinary([1, 2], forKey: "t-bin")
        let result = verdict(
            .trailers, [("grpc-status", "5"), ("grpc-message", "not%20here%E2%98%BA"), ("t-bin", "AQI")],
            endStream: true)
        #expect(result == .status(Status(code: .notFound, message: "not here☺"), expected))
    }

    @Test func trailersOnlyIsAFinalStatus() {
        let result = verdict(
            .headers, [(":status", "200"), ("content-type", "application/grpc"), ("grpc-status", "12")], endStream: true
        )
        #expect(result == .status(Status(code: .unimplemented), Metadata()))
    }

    @Test(arguments: [
        (400, StatusCode.internal), (401, .unauthenticated), (403, .permissionDenied), (404, .unimplemented),
        (429, .unavailable), (431, .internal), (502, .unavailable), (503, .unavailable), (504, .unavailable),
        (500, .unknown), (418, .unknown),
    ])
    func mapsHTTPStatusesWithoutGRPCStatus(_ http: Int, _ code: StatusCode) {
        guard case .status(let status, _) = verdict(.headers, [(":status", "\(http)")], endStream: true) else {
            Issue.record("not a status"); return
        }
        #expect(status.code == code)
    }

    @Test func prefersGRPCStatusOverTheHTTPStatus() {
        guard
            case .status(let status, _) = verdict(
                .headers, [(":status", "503"), ("grpc-status", "3")], endStream: true)
        else {
            Issue.record("not a status"); return
        }
        #expect(status.code == .invalidArgument)
    }

    @Test func trailersWithoutGRPCStatusAreUnknown() {
        guard case .status(let status, _) = verdict(.trailers, [("x", "y")], endStream: true) else {
            Issue.record("not a status"); return
        }
        #expect(status.code == .unknown)
    }

    @Test func aResponseThatIsNotGRPCFails() {
        guard
            case .status(let status, _) = verdict(
                .headers, [(":status", "200"), ("content-type", "text/html")], endStream: false)
        else {
            Issue.record("not a status"); return
        }
        #expect(status.code == .internal)
    }

    @Test func statusCodesOutOfRangeAreUnknown() {
        guard case .status(let status, _) = verdict(.trailers, [("grpc-status", "42")], endStream: true) else {
            Issue.record("not a status"); return
        }
        #expect(status.code == .unknown)
    }

    @Test func informationalResponsesAreSkipped() {
        #expect(verdict(.headers, [(":status", "100")], endStream: false) == .informational)
    }
}

@Suite("HTTP/2 resets as gRPC statuses")
struct HTTP2ErrorMappingTests {
    @Test(arguments: [
        (UInt32(0x0), StatusCode.internal), (0x1, .internal), (0x2, .internal), (0x3, .internal), (0x4, .internal),
        (0x6, .internal), (0x7, .unavailable), (0x8, .cancelled), (0x9, .internal), (0xA, .internal),
        (0xB, .resourceExhausted), (0xC, .permissionDenied),
    ])
    func followsTheProtocolTable(_ errorCode: UInt32, _ code: StatusCode) {
        #expect(HTTP2ErrorMapping.status(forResetCode: errorCode).code == code)
    }
}
