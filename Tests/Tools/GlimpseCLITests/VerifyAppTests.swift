#if canImport(Glibc)
import Glibc
#endif
import DemoApps
import Foundation
import GlimpseCLI
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import NIOCore
import RPCCore
import RPCNIO
import Testing

/// `glimpse verify` against real app processes' endpoints: the five seed apps' servers on
/// port 0 (they pass), a deliberately broken app (Tests/VerifyFixtures/broken-app) served
/// by a provider in this file (it fails, with the right messages), and the usage errors.
@Suite("verify: real apps on port 0")
struct VerifyAppTests {
    typealias W = GlimpseWidgetV1

    static let repository = URL(fileURLWithPath: #filePath)  // Tests/Tools/GlimpseCLITests/…
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let demos = repository.appendingPathComponent("Demos").path
    static let broken = repository.appendingPathComponent("Tests/VerifyFixtures/broken-app").path

    func run(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
        let out = CapturedOutput(), err = CapturedOutput()
        let status = await GlimpseTool.run(arguments: arguments, output: out, errorOutput: err)
        return (status, out.text, err.text)
    }

    /// Serves `services` on a free loopback port for the length of `body`.
    static func serving(_ services: [any RPCService], _ body: (String) async throws -> Void) async throws {
        let transport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let server = GRPCServer(transport: transport, router: RPCRouter(services: services))
        try await withThrowingTaskGroup { group in
            group.addTask { try await server.serve() }
            let port = try #require(try await transport.listeningAddress().port)
            try await body("127.0.0.1:\(port)")
            server.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }

    static func lines(_ text: String, _ status: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(status + " ") }
    }

    // MARK: The seed apps

    /// Each seed app's sample Live Activities: what its app (or its push server) starts it with.
    static func samples(_ app: DemoApp) -> [String] {
        switch app {
        case .pixar: ["\(demos)/pixar/playback.json"]
        case .pizza: ["\(demos)/pizza/delivery.json"]
        case .movieplanner, .steps, .rtlair: []
        }
    }

    @Test("the five seed apps pass, their Live Activity content states included", arguments: DemoApp.allCases)
    func seedApp(_ app: DemoApp) async throws {
        try await Self.serving(app.services(gateway: nil)) { endpoint in
            let samples = Self.samples(app).flatMap { ["--activity", $0] }
            // The views' deadline is a rule of its own (below, with an app that never
            // answers): here the rules of what the apps answer, however busy the machine.
            let result = await run(
                [
                    "verify", "\(Self.demos)/\(app.rawValue)/app.json", "--endpoint", endpoint, "--timeout", "120s",
                    "--views-deadline", "120s",
                ] + samples)
            #expect(result.status == 0, "\(result.out)\n\(result.err)")
            #expect(Self.lines(result.out, "error").isEmpty, "\(result.out)")
            #expect(result.err.isEmpty)
            #expect(result.out.contains("\(app.bundleID) passes: "), "\(result.out)")
            #expect(!result.out.contains("sample: no sample content state"), "\(result.out)")
            switch app {
            case .pixar:
                #expect(result.out.contains("PixarFilmWidget systemMedium"))
                #expect(result.out.contains("intent: Button"), "\(result.out)")
                #expect(result.out.contains("FilmPlaybackAttributes"), "\(result.out)")
            case .pizza:
                #expect(result.out.contains("PizzaDeliveryAttributes"), "\(result.out)")
                #expect(result.out.contains("views: answered in"), "\(result.out)")
            case .movieplanner:
                // Three movies a minute apart, .atEnd: the spacing and the budget warn.
                #expect(result.out.contains("spacing: entries 0 and 1 are 1m apart"), "\(result.out)")
                #expect(
                    result.out.contains("reload policy: .atEnd asks for the next timeline 2m from now"), "\(result.out)"
                )
            case .steps:
                #expect(result.out.contains("LockScreenWidget accessoryInline"), "\(result.out)")
            case .rtlair:
                #expect(
                    result.out.contains("intent: Button \"checkin\" → CheckInIntent: declared, parameters set"),
                    "\(result.out)")
            }
        }
    }

    /// An ActivityConfiguration that never answers: the device's deadline for views.
    struct SilentViews: GlimpseAppV1.ActivityConfiguration.Handler {
        func views(
            request: ServerRequest<GlimpseAppV1.ActivityViewsRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.ActivityViewsResponse> {
            try await Task.sleep(for: .seconds(3600))
            throw RPCError(code: .internal, message: "unreachable")
        }
    }

    @Test("views that never come break the device's deadline, named")
    func silentViews() async throws {
        try await Self.serving([SilentViews()]) { endpoint in
            let result = await run([
                "verify", "\(Self.demos)/pizza/app.json", "--endpoint", endpoint, "--timeout", "3s",
                "--activity", "\(Self.demos)/pizza/delivery.json",
            ])
            #expect(result.status == 1)
            #expect(
                Self.lines(result.out, "error").contains { line in
                    line.contains(
                        "views: no answer within 3s: Glimpse gives up after 2s (the device's deadline for an activity's views)"
                    )
                }, "\(result.out)")
        }
    }

    @Test("--json: one object a script can read")
    func json() async throws {
        try await Self.serving(DemoApp.pixar.services(gateway: nil)) { endpoint in
            let result = await run([
                "verify", "\(Self.demos)/pixar/app.json", "--endpoint", endpoint, "--json", "--activity",
                "\(Self.demos)/pixar/playback.json",
            ])
            #expect(result.status == 0, "\(result.out)")
            let report = try JSONParser.parse(Array(result.out.utf8))
            #expect(report["passed"] == .bool(true))
            #expect(report["bundleId"]?.stringValue == "com.yourcompany.pixartracker")
            guard case .array(let checks)? = report["checks"] else { Issue.record("no checks"); return }
            #expect(
                checks.contains {
                    $0["check"]?.stringValue == "timeline" && $0["family"]?.stringValue == "systemLarge"
                        && $0["status"]?.stringValue == "ok"
                })
            #expect(checks.allSatisfy { $0["status"]?.stringValue != "error" })
        }
    }

    // MARK: A broken app

    /// The broken app's provider: each kind breaks one rule.
    struct BrokenProvider: GlimpseAppV1.WidgetProvider.Handler {
        static func date(_ at: Date) -> GoogleProtobuf.Timestamp {
            let seconds = at.timeIntervalSince1970.rounded(.down)
            return GoogleProtobuf.Timestamp(
                seconds: Int64(seconds), nanos: Int32(((at.timeIntervalSince1970 - seconds) * 1e9).rounded(.down)))
        }

        static func text(_ s: String) -> W.View { W.View(kind: .text(W.Text(content: s))) }

        static func entry(_ at: Date, _ view: W.View = text("broken")) -> W.TimelineEntry {
            W.TimelineEntry(date: date(at), view: view)
        }

        static func buttons() -> W.View {
            func button(_ intent: String, _ parameters: [String: W.ParameterValue]) -> W.View {
                var button = W.Button()
                button.intent = W.IntentInvocation(intentType: intent, parameters: parameters)
                button.label = text(intent)
                return W.View(kind: .button(button))
            }
            var five = W.ParameterValue()
            five.kind = .stringValue("five")
            var poster = W.Image(), nowhere = W.Image()
            poster.assetName = "poster"
            nowhere.assetName = "nowhere"
            var stack = W.Stack()
            stack.children = [
                button("MissingIntent", [:]), button("RateIntent", ["stars": five]),
                W.View(kind: .image(poster)), W.View(kind: .image(nowhere)),
            ]
            return W.View(kind: .stack(stack))
        }

        func placeholder(
            request: ServerRequest<GlimpseAppV1.PlaceholderRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.PlaceholderResponse> {
            ServerResponse(message: GlimpseAppV1.PlaceholderResponse(entry: Self.entry(Date())))
        }

        func snapshot(
            request: ServerRequest<GlimpseAppV1.SnapshotRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.SnapshotResponse> {
            ServerResponse(message: GlimpseAppV1.SnapshotResponse(entry: Self.entry(Date())))
        }

        func timeline(
            request: ServerRequest<GlimpseAppV1.TimelineRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.TimelineResponse> {
            let stamp = request.message.now ?? GoogleProtobuf.Timestamp()
            let now = Date(timeIntervalSince1970: Double(stamp.seconds) + Double(stamp.nanos) / 1e9)
            func at(_ minutes: Double) -> Date { now.addingTimeInterval(minutes * 60) }
            let timeline: W.Timeline
            switch request.message.widget?.kind {
            case "UnsortedWidget":
                timeline = W.Timeline(
                    entries: [Self.entry(at(0)), Self.entry(at(60)), Self.entry(at(30))], reloadPolicy: .never)
            case "CrowdedWidget":
                timeline = W.Timeline(entries: (0..<401).map { Self.entry(at(Double($0) * 10)) }, reloadPolicy: .never)
            case "FutureWidget":
                timeline = W.Timeline(entries: [Self.entry(at(15)), Self.entry(at(45))], reloadPolicy: .never)
            case "ButtonWidget":
                timeline = W.Timeline(
                    entries: [Self.entry(at(0), Self.buttons())], reloadPolicy: .after(Self.date(at(1))))
            default:
                throw RPCError(code: .notFound, message: "no such kind")
            }
            return ServerResponse(message: GlimpseAppV1.TimelineResponse(timeline: timeline))
        }
    }

    /// The broken app's Live Activity views: a Lock Screen and nothing for the Dynamic Island.
    struct BrokenViews: GlimpseAppV1.ActivityConfiguration.Handler {
        func views(
            request: ServerRequest<GlimpseAppV1.ActivityViewsRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.ActivityViewsResponse> {
            var views = W.ActivityViews()
            views.lockScreen = BrokenProvider.text("delivery")
            return ServerResponse(message: GlimpseAppV1.ActivityViewsResponse(views: views))
        }
    }

    @Test("a broken app fails, each broken rule named")
    func brokenApp() async throws {
        try await Self.serving([BrokenProvider(), BrokenViews()]) { endpoint in
            let result = await run([
                "verify", "\(Self.broken)/app.json", "--endpoint", endpoint,
                "--activity", "\(Self.broken)/oversized.json", "--activity", "\(Self.broken)/iso-date.json",
            ])
            #expect(result.status == 1, "\(result.out)")
            let errors = Self.lines(result.out, "error")
            func has(_ fragments: String...) -> Bool {
                errors.contains { line in fragments.allSatisfy { line.contains($0) } }
            }
            // Unsorted entries: the device sorts them, so a warning, not an error.
            #expect(
                Self.lines(result.out, "warning").contains { line in
                    line.contains("UnsortedWidget systemSmall")
                        && line.contains(
                            "order: entries are not sorted by date: entry 2 (now+30m) comes after entry 1 (now+1h)")
                },
                "\(result.out)")
            #expect(
                has(
                    "CrowdedWidget systemSmall",
                    "timeline: 401 entries: glimpse-timeline refuses a timeline of more than 400"), "\(result.out)")
            #expect(
                has("FutureWidget systemSmall", "timeline: the first entry is in the future (now+15m"), "\(result.out)")
            #expect(
                has(
                    "ButtonWidget systemMedium",
                    "intent: Button \"MissingIntent\" invokes MissingIntent, which the manifest does not declare (declared: RateIntent)"
                ), "\(result.out)")
            #expect(
                has(
                    "ButtonWidget systemMedium",
                    "intent: Button \"RateIntent\" → RateIntent sets parameter stars to a string; RateIntent declares it int"
                ), "\(result.out)")
            #expect(
                has(
                    "ButtonWidget systemMedium", "image: Image(\"nowhere\"): the manifest declares no asset \"nowhere\""
                ), "\(result.out)")
            #expect(
                has(
                    "huge",
                    "asset: glimpse-asset refuses it: a 1024×1024 widget image is 1048576 pixels; the limit is 718080"),
                "\(result.out)")
            #expect(
                has("gone", "asset: cannot read \(Self.broken)/assets/gone.png (No such file or directory)"),
                "\(result.out)")
            #expect(
                has(
                    "DeliveryAttributes \(Self.broken)/oversized.json", "content state: 4",
                    "bytes: ActivityKit refuses a content state over 4096 bytes (attributesTooLarge"), "\(result.out)")
            #expect(
                has(
                    "DeliveryAttributes \(Self.broken)/iso-date.json",
                    "content state: \"eta\" is the ISO 8601 string \"2026-11-24T15:00:00Z\": ActivityKit decodes it with the default JSONDecoder (custom strategies fail; Date = seconds since 2001, spec §5); write the number 817225200"
                ),
                "\(result.out)")
            #expect(errors.count == 10, "\(errors.joined(separator: "\n"))")

            let warnings = Self.lines(result.out, "warning")
            #expect(
                warnings.contains {
                    $0.contains("ButtonWidget systemMedium")
                        && $0.contains("reload policy: .after(now+1m) asks for the next timeline 1m from now")
                })
            #expect(
                warnings.contains { $0.contains("views: no compact leading, compact trailing, minimal, expanded view") }
            )
            #expect(
                Self.lines(result.out, "ok").contains { $0.contains("poster") && $0.contains("asset: PNG 300×450 px") })
            #expect(
                result.out.hasSuffix(
                    "com.example.broken fails: \(Self.lines(result.out, "ok").count) ok, \(warnings.count) warnings, 10 errors\n"
                ))
            #expect(result.err == "error: com.example.broken does not pass: 10 errors\n")
        }
    }

    // MARK: Usage, and nothing listening

    @Test("usage errors exit 2: an unreadable or malformed manifest, bad flags, a missing sample file")
    func usage() async throws {
        let missing = await run(["verify", "/nonexistent/app.json"])
        #expect(missing.status == 2)
        #expect(missing.err == "error: /nonexistent/app.json: cannot read the manifest: No such file or directory\n")
        #expect(missing.out.isEmpty)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "glimpse-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("app.json").path
        try Data("{\"bundleId\": \"x\", \"widgetz\": []}".utf8).write(to: URL(fileURLWithPath: bad))
        let malformed = await run(["verify", bad])
        #expect(malformed.status == 2)
        #expect(malformed.err.hasPrefix("error: \(bad): "), "\(malformed.err)")
        #expect(malformed.err.contains("widgetz"), "\(malformed.err)")
        let app = "\(Self.demos)/steps/app.json"
        for arguments in [
            ["verify"], ["verify", app, "--timeout", "0s"], ["verify", app, "--timeout", "soon"],
            ["verify", app, "--endpoint", "nowhere"], ["verify", app, "--now", "tomorrow"],
            ["verify", app, "--activity", "/nonexistent/sample.json"],
        ] {
            let result = await run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.err)")
            #expect(result.out.isEmpty, "\(arguments)")
        }
    }

    @Test("an endpoint nobody listens on is one error line, not a crash")
    func unreachable() async throws {
        let port = try Self.freePort()
        let result = await run([
            "verify", "\(Self.demos)/steps/app.json", "--endpoint", "127.0.0.1:\(port)", "--timeout", "3s",
        ])
        #expect(result.status == 1)
        let errors = Self.lines(result.out, "error")
        #expect(errors.count == 1, "\(result.out)")
        #expect(errors.first?.hasPrefix("error   127.0.0.1:\(port) ") == true, "\(result.out)")
        #expect(
            errors.first?.hasSuffix(
                "  endpoint: cannot reach it (connection refused): 9 calls not answered; start the app there or pass --endpoint host:port"
            ) == true,
            "\(result.out)")
        #expect(result.err == "error: com.soarias.dailysteps does not pass: 1 error\n")
    }

    /// A loopback port nothing listens on: free when tried, and below the kernel's
    /// ephemeral range, so that no server of a test running alongside (binding port 0)
    /// can be handed it meanwhile.
    static func freePort() throws -> Int {
        let range =
            (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? []
        let low = range.first ?? 32768
        for _ in 0..<500 {
            let port = Int.random(in: max(1024, low - 12000)..<low)
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound == 0 { return port }
        }
        throw RPCError(code: .unavailable, message: "no free port below the ephemeral range")
    }
}
