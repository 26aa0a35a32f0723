@testable import DemoApps
import GlimpseKit
import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Testing

/// `services` served over the in-process transport for the length of `body`.
func withServices<Result: Sendable>(
    _ services: [any RPCService], _ body: (GRPCClient) async throws -> Result
) async throws -> Result {
    let transport = InProcessTransport()
    let server = GRPCServer(transport: transport.server, services: services)
    let client = GRPCClient(transport: transport.client)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.serve() }
        group.addTask { try await client.run() }
        defer {
            client.beginGracefulShutdown()
            server.beginGracefulShutdown()
        }
        return try await body(client)
    }
}

/// The apps' services over the in-process transport, through their generated clients.
@Suite struct ServicesTests {
    func withApp<Result: Sendable>(_ app: DemoApp, _ body: (GRPCClient) async throws -> Result) async throws -> Result {
        try await withServices(app.services(gateway: nil), body)
    }

    @Test func pixarAnswersTimelinesAndTapsOverTheWire() async throws {
        try await withApp(.pixar) { client in
            let provider = GlimpseAppV1.WidgetProvider.Client(wrapping: client)
            var request = GlimpseAppV1.TimelineRequest(
                widget: .init(kind: "PixarFilmWidget", placementId: 1), context: .family(.systemMedium))
            request.now = .init(date: start)
            let first = try await provider.timeline(ClientRequest(message: request)).message.timeline
            #expect(first?.entries.count == 5 && first?.reloadPolicy == .atEnd)

            let handler = GlimpseAppV1.IntentHandler.Client(wrapping: client)
            var perform = GlimpseAppV1.PerformRequest(intentType: "MarkFilmWatchedIntent")
            perform.parameters = ["filmID": .init(kind: .stringValue("coco"))]
            // The Button carries both @Parameters: a tap without the title fails, and changes nothing.
            let partial = try await handler.perform(ClientRequest(message: perform)).message
            #expect(
                partial.outcome == .failed(.init(message: "MarkFilmWatchedIntent: @Parameter filmTitle has no value")))
            perform.parameters["filmTitle"] = .init(kind: .stringValue("Coco"))
            let done = try await handler.perform(ClientRequest(message: perform)).message
            #expect(done.outcome == .succeeded(.init()))
            #expect(done.reloads?.kinds == ["PixarFilmWidget"])
            let next = try await provider.timeline(ClientRequest(message: request)).message.timeline
            #expect(next?.entries.first?.view?.texts.first == "Up")
        }
    }

    @Test func anUnknownKindIsNotFound() async throws {
        try await withApp(.steps) { client in
            let provider = GlimpseAppV1.WidgetProvider.Client(wrapping: client)
            let request = GlimpseAppV1.TimelineRequest(
                widget: .init(kind: "PixarFilmWidget"), context: .family(.accessoryInline))
            let error = await #expect(throws: RPCError.self) {
                try await provider.timeline(ClientRequest(message: request))
            }
            #expect(error?.code == .notFound)
        }
    }

    @Test func pizzaAnswersViewsAndRefusesAnotherType() async throws {
        try await withApp(.pizza) { client in
            let configuration = GlimpseAppV1.ActivityConfiguration.Client(wrapping: client)
            var request = GlimpseAppV1.ActivityViewsRequest(attributesType: "PizzaDeliveryAttributes")
            request.attributesJson = #"{"numberOfPizzas":1,"totalAmount":"$99"}"#
            request.stateJson = #"{"driverName":"Tim","estimatedDeliveryTime":[788950800,788951700]}"#
            let views = try await configuration.views(ClientRequest(message: request)).message.views
            #expect(views?.lockScreen?.texts.first == "Tim is on the way!")
            request.attributesType = "FilmPlaybackAttributes"
            let error = await #expect(throws: RPCError.self) {
                try await configuration.views(ClientRequest(message: request))
            }
            #expect(error?.code == .notFound)
        }
    }

    @Test func theManifestsMatchTheApps() throws {
        let demos = DemoAssets.demos
        for app in DemoApp.allCases {
            let data = try Data(contentsOf: demos.appendingPathComponent("\(app.rawValue)/app.json"))
            let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(manifest["bundleId"] as? String == app.bundleID)
            #expect(manifest["defaultEndpoint"] as? String == "127.0.0.1:\(app.defaultPort)")
        }
    }
}
