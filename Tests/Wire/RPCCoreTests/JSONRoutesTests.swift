import RPCCore
import RPCTestService
import Testing

@Suite("HTTP/JSON: routes, statuses, error bodies, request heads")
struct JSONRoutesTests {
    @Test(arguments: [
        ("Widgets", "widgets"), ("WidgetCenter", "widget_center"), ("AdvanceBy", "advance_by"), ("Tap", "tap"),
        ("GetURLPath", "get_url_path"), ("HTTPStatus", "http_status"), ("ReloadAllTimelines", "reload_all_timelines"),
        ("V2Thing", "v2_thing"), ("Item2Go", "item2_go"), ("already_snake", "already_snake"), ("ABC", "abc"),
    ])
    func snakeCasesNames(_ name: String, _ snake: String) {
        #expect(JSONRoutes.snakeCase(name) == snake)
    }

    @Test func routesAMethodByItsServicesSimpleNameAndItsName() {
        #expect(
            JSONRoutes.route(for: MethodDescriptor(service: "glimpse.gateway.v1.Widgets", method: "Tap"))
                == "/v1/widgets/tap")
        #expect(
            JSONRoutes.route(
                for: MethodDescriptor(service: "glimpse.gateway.v1.WidgetCenter", method: "ReloadTimelines"))
                == "/v1/widget_center/reload_timelines")
        #expect(JSONRoutes.route(for: MethodDescriptor(service: "Bare", method: "Go")) == "/v1/bare/go")
    }

    @Test func aRouterKnowsTheRoutesOfItsJSONMethodsOnly() {
        let router = RPCRouter(services: [SteeredTestService(), ListingService()], jsonServices: [ListingService()])
        #expect(router.jsonRoutes.all.map(\.route) == ["/v1/listing", "/v1/listing/get", "/v1/listing/list"])
        #expect(router.jsonRoutes.resolve("/v1/listing") == "/t.Listing/List", "a List method is its bare resource too")
        #expect(router.jsonRoutes.resolve("/v1/listing/list") == "/t.Listing/List")
        #expect(router.jsonRoutes.resolve("/v1/listing/get?x=1&y") == "/t.Listing/Get", "the query is ignored")
        #expect(router.jsonRoutes.resolve("/v1/steered/unary") == nil, "gRPC only")
        #expect(router.jsonRoutes.resolve("/v1/listing/") == nil)
        #expect(router.jsonRoutes.resolve("/t.Listing/Get") == nil)
        #expect(router.hasJSONMethod(MethodDescriptor(service: "t.Listing", method: "Get")))
        #expect(!router.hasJSONMethod(SteeredTestService.unary))
        #expect(
            router.paths == [
                "/glimpse.test.Steered/Bidi", "/glimpse.test.Steered/ClientStream",
                "/glimpse.test.Steered/ServerStream",
                "/glimpse.test.Steered/Unary", "/t.Listing/Get", "/t.Listing/List",
            ], "JSON registrations do not add gRPC paths")
        #expect(RPCRouter(services: [SteeredTestService()]).jsonRoutes.isEmpty)
    }

    @Test func claimsEveryPathUnderV1() {
        let routes = RPCRouter(services: [], jsonServices: [ListingService()]).jsonRoutes
        #expect(routes.claims("/v1/anything"))
        #expect(!routes.claims("/t.Listing/Get"))
        #expect(!routes.claims("/v10/x"))
    }

    static let mapping: [(StatusCode, Int)] = [
        (.ok, 200), (.cancelled, 499), (.unknown, 500), (.invalidArgument, 400), (.deadlineExceeded, 504),
        (.notFound, 404), (.alreadyExists, 409), (.permissionDenied, 403), (.resourceExhausted, 429),
        (.failedPrecondition, 400), (.aborted, 409), (.outOfRange, 400), (.unimplemented, 501), (.internal, 500),
        (.unavailable, 503), (.dataLoss, 500), (.unauthenticated, 401),
    ]

    @Test func mapsEveryCodeToItsHTTPStatus() {
        #expect(Self.mapping.count == StatusCode.allCases.count)
        for (code, status) in Self.mapping { #expect(code.httpStatus == status, "\(code)") }
    }

    @Test func writesAnErrorAsCodeStatusAndMessage() {
        let status = Status(code: .notFound, message: "no \"widget\" \\ here\n\u{1}é")
        #expect(
            String(decoding: JSONErrorBody.object(status), as: UTF8.self)
                == #"{"code":5,"status":"NOT_FOUND","message":"no \"widget\" \\ here\n\u0001é"}"#)
        #expect(
            String(decoding: JSONErrorBody.streamLine(Status(code: .aborted)), as: UTF8.self)
                == #"{"error":{"code":10,"status":"ABORTED","message":""}}"# + "\n")
    }

    // MARK: Request heads

    static let routes = RPCRouter(services: [], jsonServices: [ListingService()]).jsonRoutes

    func parse(_ fields: [(String, String)], json: Bool = true) -> Result<RequestHead, RequestRejection> {
        var parser = RequestHeadParser(maxHeaderListSize: 1024)
        for (name, value) in fields { parser.add(name: name, value: value) }
        return parser.finish(json: json ? Self.routes : nil)
    }

    func rejection(_ result: Result<RequestHead, RequestRejection>) -> RequestRejection? {
        if case .failure(let rejection) = result { return rejection }
        return nil
    }

    @Test(arguments: [nil, "application/json", "application/x-www-form-urlencoded", "text/plain"])
    func takesANonGRPCRequestOnARouteAsAJSONCall(_ contentType: String?) throws {
        var fields = [
            (":method", "POST"), (":path", "/v1/listing/get?verbose"), ("authorization", "Bearer t"),
            ("grpc-timeout", "3S"),
        ]
        if let contentType { fields.append(("content-type", contentType)) }
        let head = try parse(fields).get()
        #expect(head.format == .json)
        #expect(head.path == "/t.Listing/Get")
        #expect(head.timeout == .seconds(3))
        #expect(head.metadata[stringValues: "authorization"] == ["Bearer t"])
    }

    @Test func leavesGRPCRequestsAndOtherPathsToGRPC() throws {
        let grpc = try parse([(":method", "POST"), (":path", "/v1/listing/get"), ("content-type", "application/grpc")])
            .get()
        #expect(grpc.format == .protobuf && grpc.path == "/v1/listing/get")
        let other = rejection(
            parse([(":method", "POST"), (":path", "/t.Listing/Get"), ("content-type", "application/json")]))
        #expect(other?.httpStatus == 415 && other?.format == .protobuf)
        let withoutRoutes = rejection(parse([(":method", "POST"), (":path", "/v1/listing/get")], json: false))
        #expect(withoutRoutes?.httpStatus == 415 && withoutRoutes?.format == .protobuf)
    }

    @Test func answersAnUnknownRoute404AndAnotherMethod405() {
        let unknown = rejection(parse([(":method", "POST"), (":path", "/v1/listing/nope")]))
        #expect(unknown?.format == .json && unknown?.jsonHTTPStatus == 404 && unknown?.status.code == .notFound)
        let get = rejection(parse([(":method", "GET"), (":path", "/v1/listing/get")]))
        #expect(get?.format == .json && get?.jsonHTTPStatus == 405 && get?.headersOnly == false)
        let head = rejection(parse([(":method", "HEAD"), (":path", "/v1/listing/get")]))
        #expect(head?.jsonHTTPStatus == 405 && head?.headersOnly == true)
    }

    @Test func answersBadHeaders400AndTooManyHeaderBytes431() {
        let timeout = rejection(parse([(":method", "POST"), (":path", "/v1/listing/get"), ("grpc-timeout", "soon")]))
        #expect(timeout?.jsonHTTPStatus == 400 && timeout?.status.code == .invalidArgument)
        let binary = rejection(parse([(":method", "POST"), (":path", "/v1/listing/get"), ("x-key-bin", "!!")]))
        #expect(binary?.jsonHTTPStatus == 400)
        let large = rejection(
            parse([
                (":method", "POST"), (":path", "/v1/listing/get"),
                ("x-big", String(repeating: "a", count: 2000)),
            ]))
        #expect(large?.jsonHTTPStatus == 431 && large?.format == .json)
    }

    @Test func aRejectionWithoutItsOwnHTTPStatusTakesItsCodes() {
        #expect(RequestRejection(status: Status(code: .deadlineExceeded), format: .json).jsonHTTPStatus == 504)
        #expect(
            RequestRejection(httpStatus: 413, status: Status(code: .resourceExhausted), format: .json).jsonHTTPStatus
                == 413)
    }

    // MARK: Deserializers choose the status

    @Test func aDeserializerErrorThatNamesAStatusChoosesIt() async throws {
        try await withInProcessClient(services: [RefusingService()]) { client in
            let error = await #expect(throws: RPCError.self) {
                try await client.unary(
                    request: ClientRequest(message: [UInt8]()), method: RefusingService.method,
                    serializer: raw, deserializer: raw)
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "bad text")
        }
    }
}

/// `Get` and `List`, served as JSON too.
struct ListingService: RPCJSONService {
    func registerMethods(with router: inout RPCRouter) { register(&router, .protobuf) }
    func registerJSONMethods(with router: inout RPCRouter) { register(&router, .json) }

    private func register(_ router: inout RPCRouter, _ format: MessageFormat) {
        for name in ["Get", "List"] {
            router.registerUnary(
                MethodDescriptor(service: "t.Listing", method: name), format: format, deserializer: raw, serializer: raw
            ) { request, _ in ServerResponse(message: request.message) }
        }
    }
}

/// A method whose request never deserializes: its deserializer's error says INVALID_ARGUMENT.
struct RefusingService: RPCService {
    static let method = MethodDescriptor(service: "t.Refusing", method: "Go")

    struct BadText: RPCStatusConvertible {
        var rpcStatus: Status { Status(code: .invalidArgument, message: "bad text") }
    }

    struct Refusing: MessageDeserializer {
        func deserialize(_ bytes: [UInt8]) throws -> [UInt8] { throw BadText() }
    }

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(Self.method, deserializer: Refusing(), serializer: raw) { request, _ in
            ServerResponse(message: request.message)
        }
    }
}
