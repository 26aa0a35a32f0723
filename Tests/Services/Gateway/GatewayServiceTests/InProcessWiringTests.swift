import EngineHosting
import Foundation
import GatewayService
import GlimpseMessages
import GlimpseRPC
import RPCCore
import ServiceKit
import Testing
import TimelineService

/// Services wired in one process: the gateway's upstreams reach a real glimpse-timeline over
/// an in-process transport (no socket), with the same call semantics.
@Suite("In-process wiring: Connections take a transport")
struct InProcessWiringTests {
    @Test("the gateway's upstreams call a real glimpse-timeline in-process: answers and refusals as over HTTP/2")
    func upstreamsReachATimelineInProcess() async throws {
        let timeline = try TimelineServer.open(
            directory: nil, clock: HostClock(.manual(start: Date(timeIntervalSince1970: 1_767_225_600))))
        let transport = InProcessTransport()
        let server = GRPCServer(transport: transport.server, services: [timeline.handlers, timeline.clock])
        let serving = Task { try await server.serve() }
        var addresses = Upstreams.Addresses()
        addresses.timeline = ServiceAddress(host: "timeline.in-process", port: 1)
        // Only glimpse-timeline is wired (a host no resolver knows: a socket could not reach it).
        let upstreams = Upstreams(addresses: addresses, transports: .inProcess([addresses.timeline: transport.client]))

        let listed = try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().listPlacements(
                ClientRequest(message: GlimpseTimelineV1.ListPlacementsRequest()), options: options
            ).message
        }
        #expect(listed.placements.isEmpty)
        let missing = await #expect(throws: RPCError.self) {
            try await upstreams.call(.timeline) { options in
                try await upstreams.timeline().getPlacement(
                    ClientRequest(message: GlimpseTimelineV1.GetPlacementRequest(placementId: 7)), options: options
                ).message
            }
        }
        #expect(missing?.code == .notFound)

        await upstreams.connections.shutdown()
        server.beginGracefulShutdown()
        _ = await serving.result
        try await timeline.close()
    }
}
