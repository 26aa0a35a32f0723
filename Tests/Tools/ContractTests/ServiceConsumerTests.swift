import ActivityService
import Contracts
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseRPC
import IntentService
import RPCCore
import ServiceKit
import Testing
import TimelineService

/// The consumer side for the services that call another service: glimpse-intent (the
/// reloads a tap asks for) and glimpse-activity (a widget push's reload), each the real
/// service with its outbound calls going to a stub of glimpse-timeline made from its own
/// contract; and glimpse-timeline, whose image hints go to a stub of glimpse-asset.
@Suite("glimpse-intent, glimpse-activity and glimpse-timeline work with what their contracts promise")
struct ServiceConsumerTests {
    /// Serves `services` in memory while `body` runs with a client.
    static func inProcess<Result: Sendable>(
        _ services: [any RPCService], _ body: (GRPCClient) async throws -> Result
    ) async throws -> Result {
        let transport = InProcessTransport()
        let server = GRPCServer(transport: transport.server, services: services)
        let client = GRPCClient(transport: transport.client)
        let serving = Task { try await server.serve() }
        let running = Task { try await client.run() }
        defer {
            client.beginGracefulShutdown()
            server.beginGracefulShutdown()
        }
        let result = try await body(client)
        client.beginGracefulShutdown()
        server.beginGracefulShutdown()
        _ = await running.result
        _ = await serving.result
        return result
    }

    @Test("glimpse-intent → glimpse-timeline: each tap's reloads (the tapped widget's, a kind's, every timeline's)")
    func intent() async throws {
        let stub = ContractStub(try Repository.contracts(), consumer: "glimpse-intent", provider: "glimpse-timeline")
        let scratch = try Scratch("intent-consumer")
        defer { scratch.remove() }
        let bundle = "contracts.intent.consumer"
        try await LoopbackServer.serving([stub]) { port in
            let server = try IntentServer.open(
                directory: scratch.url, clock: HostClock(.manual(start: start)),
                outbound: .init(address: ServiceAddress(host: "127.0.0.1", port: port)))
            try await Self.inProcess([server.handlers]) { client in
                let intent = GlimpseIntentV1.IntentService.Client(wrapping: client)
                var manifest = GlimpseAppV1.AppManifest()
                manifest.bundleId = bundle
                manifest.appGroups = ["group.\(bundle)"]
                func declare(
                    _ type: String, _ reloads: GlimpseAppV1.ReloadRequest.Scope?
                ) -> GlimpseAppV1.IntentDeclaration {
                    var declaration = GlimpseAppV1.IntentDeclaration()
                    declaration.type = type
                    declaration.widgetKinds = ["ContractWidget"]
                    var action = GlimpseAppV1.StoreAction()
                    action.appGroup = "group.\(bundle)"
                    action.operations = [GlimpseAppV1.StoreOperation(kind: .toggle("done"))]
                    action.reloads = reloads.map { GlimpseAppV1.ReloadRequest(scope: $0) }
                    declaration.action = .store(action)
                    return declaration
                }
                manifest.intents = [
                    declare("ToggleIntent", nil),
                    declare("ToggleKindIntent", .kinds(.init(kinds: ["ContractWidget"]))),
                    declare("ToggleAllIntent", .allTimelines(true)),
                ]
                _ = try await intent.registerApp(ClientRequest(message: .init(manifest: manifest)))
                _ = try await intent.placementAdded(
                    ClientRequest(
                        message: .init(placementId: 7, bundleId: bundle, kind: "ContractWidget", family: .systemSmall)))
                for (index, type) in ["ToggleIntent", "ToggleKindIntent", "ToggleAllIntent"].enumerated() {
                    var tap = GlimpseIntentV1.PerformRequest()
                    tap.idempotencyKey = "tap-\(index)"
                    tap.bundleId = bundle
                    tap.placementId = 7
                    tap.intentType = type
                    let answer = try await intent.perform(ClientRequest(message: tap)).message
                    guard case .performed? = answer.result else {
                        Issue.record("\(type) was not performed: \(answer)")
                        continue
                    }
                }
            }
            try await server.close()
        }
        // Each tap's reload was asked (before the tap was answered), each as the contract has it.
        #expect(stub.unmatched.isEmpty, "\(stub.unmatched)")
        #expect(stub.served == ["reload-placement": 1, "reload-timelines": 1, "reload-all-timelines": 1])
    }

    @Test("glimpse-activity → glimpse-timeline: a widget push asks for every timeline of its app")
    func activity() async throws {
        let stub = ContractStub(try Repository.contracts(), consumer: "glimpse-activity", provider: "glimpse-timeline")
        let scratch = try Scratch("activity-consumer")
        defer { scratch.remove() }
        let bundle = "contracts.activity.consumer"
        try await LoopbackServer.serving([stub]) { port in
            let server = try await ActivityServer.open(
                directory: scratch.url, clock: HostClock(.manual(start: start)), authentication: .none,
                outbound: .init(address: ServiceAddress(host: "127.0.0.1", port: port)))
            try await Self.inProcess([server.handlers]) { client in
                let activity = GlimpseActivityV1.ActivityService.Client(wrapping: client)
                var manifest = GlimpseAppV1.AppManifest()
                manifest.bundleId = bundle
                let token = try await activity.installApp(ClientRequest(message: .init(manifest: manifest))).message
                    .appToken
                let widgetToken = try await activity.getWidgetPushToken(
                    ClientRequest(
                        message: .init(bundleId: bundle), metadata: Metadata(["authorization": "Bearer \(token)"]))
                ).message.pushToken
                let push = APNsRequest(
                    method: "POST", path: "/3/device/\(widgetToken)",
                    headers: [("apns-push-type", "widgets"), ("apns-topic", "\(bundle).push-type.widgets")],
                    body: Array(#"{"aps":{"content-changed":true}}"#.utf8), connection: "contract-test")
                #expect(await server.endpoint.respond(to: push).status == 200)
            }
            try await server.close()
        }
        #expect(stub.unmatched.isEmpty, "\(stub.unmatched)")
        #expect(stub.served == ["reload-all-timelines": 1])
    }

    /// An app's provider whose timeline shows one image now and another in an hour.
    struct PosterProvider: GlimpseAppV1.WidgetProvider.Handler {
        static func entry(_ date: Date, _ image: String) -> GlimpseWidgetV1.TimelineEntry {
            var view = GlimpseWidgetV1.View()
            view.kind = .image(GlimpseWidgetV1.Image(assetName: image))
            var entry = GlimpseWidgetV1.TimelineEntry()
            entry.date = GoogleProtobuf.Timestamp(seconds: Int64(date.timeIntervalSince1970), nanos: 0)
            entry.view = view
            return entry
        }

        func placeholder(
            request: ServerRequest<GlimpseAppV1.PlaceholderRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.PlaceholderResponse> {
            ServerResponse(message: .init(entry: Self.entry(start, "posters/now")))
        }

        func snapshot(
            request: ServerRequest<GlimpseAppV1.SnapshotRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.SnapshotResponse> {
            ServerResponse(message: .init(entry: Self.entry(start, "posters/now")))
        }

        func timeline(
            request: ServerRequest<GlimpseAppV1.TimelineRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseAppV1.TimelineResponse> {
            let now = request.message.now.map { Date(timeIntervalSince1970: Double($0.seconds)) } ?? start
            var timeline = GlimpseWidgetV1.Timeline()
            timeline.entries = [
                Self.entry(now, "posters/now"), Self.entry(now.addingTimeInterval(3600), "posters/next"),
            ]
            timeline.reloadPolicy = .never
            return ServerResponse(message: .init(timeline: timeline))
        }
    }

    @Test(
        "glimpse-timeline → glimpse-asset: a shown entry's images are prefetched and pinned, a removed widget's released"
    )
    func timeline() async throws {
        let stub = ContractStub(try Repository.contracts(), consumer: "glimpse-timeline", provider: "glimpse-asset")
        let scratch = try Scratch("timeline-consumer")
        defer { scratch.remove() }
        let bundle = "contracts.timeline.consumer"
        func served(_ name: String) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(20)
            while stub.served[name] == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            return stub.served[name] != nil
        }
        try await LoopbackServer.serving([stub, PosterProvider()]) { port in
            let server = try TimelineServer.open(
                directory: scratch.url, clock: HostClock(.manual(start: start)),
                outbound: Outbound(address: ServiceAddress(host: "127.0.0.1", port: port)))
            try await Self.inProcess([server.handlers]) { client in
                let timeline = GlimpseTimelineV1.TimelineService.Client(wrapping: client)
                var manifest = GlimpseAppV1.AppManifest()
                manifest.bundleId = bundle
                manifest.defaultEndpoint = "127.0.0.1:\(port)"
                manifest.widgets = [GlimpseAppV1.WidgetKindDeclaration(kind: "Posters")]
                _ = try await timeline.installApp(ClientRequest(message: .init(manifest: manifest)))
                var place = GlimpseTimelineV1.PlaceRequest()
                place.bundleId = bundle
                place.kind = "Posters"
                place.family = .systemSmall
                let placement =
                    try await timeline.place(ClientRequest(message: place)).message.placement?.placementId ?? 0
                #expect(try await served("pin"))
                _ = try await timeline.remove(ClientRequest(message: .init(placementId: placement)))
                #expect(try await served("unpin"))
            }
            try await server.close()
        }
        #expect(stub.unmatched.isEmpty, "\(stub.unmatched)")
        // Once each: the second change (the placeholder, then the entry) names the same images.
        #expect(stub.served == ["prefetch": 1, "pin": 1, "unpin": 1])
    }
}
