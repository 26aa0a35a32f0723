import ActivityService
import AssetService
import Contracts
import EngineHosting
import Foundation
import IntentService
import RPCCore
import ServiceKit
import TimelineService

/// The four providers, each run for real: its service library wired as its main wires it
/// (journal in a fresh data directory, manual clock), served over gRPC on a loopback port.
enum Provider: String, CaseIterable, CustomStringConvertible, Sendable {
    case timeline = "glimpse-timeline"
    case intent = "glimpse-intent"
    case activity = "glimpse-activity"
    case asset = "glimpse-asset"

    var description: String { rawValue }

    /// Runs `body` with the port the provider listens on. Outbound calls (glimpse-intent's
    /// and glimpse-activity's reloads) go to `timelineAddress` when given; `systemClock`
    /// runs it as a deployed service runs (no timer is armed: nothing here comes due).
    func serving<Result: Sendable>(
        timelineAddress: ServiceAddress? = nil, systemClock: Bool = false, _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let scratch = try Scratch(rawValue)
        defer { scratch.remove() }
        let clock = systemClock ? HostClock(.system) : HostClock(.manual(start: start))
        switch self {
        case .timeline:
            let server = try TimelineServer.open(directory: scratch.url, clock: clock)
            return try await Self.serve([server.handlers, server.clock], body) { try await server.close() }
        case .intent:
            let server = try IntentServer.open(
                directory: scratch.url, clock: clock, outbound: .init(address: timelineAddress))
            return try await Self.serve([server.handlers, server.clock], body) { try await server.close() }
        case .activity:
            let server = try await ActivityServer.open(
                directory: scratch.url, clock: clock, authentication: .none, outbound: .init(address: timelineAddress))
            return try await Self.serve([server.handlers, server.clock], body) { try await server.close() }
        case .asset:
            let server = try await AssetServer.open(directory: scratch.url, clock: clock)
            return try await Self.serve([server.handlers, server.clock], body) { try await server.close() }
        }
    }

    private static func serve<Result: Sendable>(
        _ services: [any RPCService], _ body: (Int) async throws -> Result, close: () async throws -> Void
    ) async throws -> Result {
        do {
            let result = try await LoopbackServer.serving(services, body)
            try await close()
            return result
        } catch {
            try? await close()
            throw error
        }
    }
}
