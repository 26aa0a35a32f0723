#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseMessages
import GlimpseRPC
import ProtoMapping
import RPCCore

/// The gateway calls `glimpse fleet` makes, each for one device: a device's calls name it
/// (`glimpse-device`); an app's carry its token, which names the device it was installed on.
struct FleetCalls: Sendable {
    let client: GRPCClient

    private func device<Message: Sendable>(_ device: String, _ message: Message) -> ClientRequest<Message> {
        var metadata = Metadata()
        metadata.addString(device, forKey: DeviceScope.metadataKey)
        return ClientRequest(message: message, metadata: metadata)
    }

    private func app<Message: Sendable>(_ token: String, _ message: Message) -> ClientRequest<Message> {
        var metadata = Metadata()
        metadata.addString("Bearer \(token)", forKey: "authorization")
        return ClientRequest(message: message, metadata: metadata)
    }

    /// Creates `device`; the shard that keeps it (empty: the gateway has none).
    func create(_ device: String) async throws -> String {
        try await GlimpseGatewayV1.Devices.Client(wrapping: client).create(
            .init(message: .init(deviceId: device))
        ).message.shard
    }

    func delete(_ device: String) async throws {
        _ = try await GlimpseGatewayV1.Devices.Client(wrapping: client).delete(
            .init(message: .init(deviceId: device)))
    }

    /// The device's clock now.
    func now(_ device: String) async throws -> Date {
        let state = try await GlimpseGatewayV1.Clock.Client(wrapping: client).now(self.device(device, .init())).message
        guard state.manual else {
            throw CLIFailure.local(
                "the stack runs on the system clock: a fleet needs manual clocks (glimpse up --manual <instant>)")
        }
        return Self.date(state.now)
    }

    func advance(_ device: String, by seconds: Double) async throws {
        let request = GlimpseGatewayV1.AdvanceRequest(by: GoogleProtobuf.Duration(seconds: seconds))
        _ = try await GlimpseGatewayV1.Clock.Client(wrapping: client).advance(self.device(device, request))
    }

    func install(
        _ device: String, _ request: GlimpseGatewayV1.InstallRequest
    ) async throws
        -> GlimpseGatewayV1.InstallResponse
    {
        try await GlimpseGatewayV1.Apps.Client(wrapping: client).install(self.device(device, request)).message
    }

    /// Places a widget; returns its placement id.
    func place(_ device: String, _ request: GlimpseGatewayV1.PlaceRequest) async throws -> UInt64 {
        try await GlimpseGatewayV1.Widgets.Client(wrapping: client).place(self.device(device, request)).message
            .placementId
    }

    func tap(_ device: String, placement: UInt64, element: String) async throws {
        let request = GlimpseGatewayV1.TapRequest(placementId: placement, element: element, idempotencyKey: "")
        _ = try await GlimpseGatewayV1.Widgets.Client(wrapping: client).tap(self.device(device, request))
    }

    /// The app comes to the foreground (ActivityKit starts activities only from there).
    func foreground(token: String) async throws {
        _ = try await GlimpseGatewayV1.AppLifecycle.Client(wrapping: client).setState(
            app(token, GlimpseGatewayV1.SetAppStateRequest(bundleId: "", foreground: true)))
    }

    func requestActivity(token: String, _ request: GlimpseActivityV1.RequestActivityRequest) async throws {
        _ = try await GlimpseGatewayV1.ActivityKit.Client(wrapping: client).request(app(token, request))
    }

    /// The push tokens of the device's Live Activities.
    func pushTokens(_ device: String) async throws -> [String] {
        let listed = try await GlimpseGatewayV1.Activities.Client(wrapping: client).list(
            self.device(device, GlimpseGatewayV1.ListActivitiesRequest()))
        return listed.message.activities.compactMap { $0.activity?.pushToken }.filter { !$0.isEmpty }
    }

    /// The provider calls in the device's event log after `start` (device time): answered
    /// (`reload_performed`) and failed (`provider_failed`).
    func providerCalls(_ device: String, after start: Date?) async throws -> (answered: Int, failed: Int) {
        let events = GlimpseGatewayV1.Events.Client(wrapping: client)
        var cursor: UInt64 = 0
        var counts = (answered: 0, failed: 0)
        while true {
            let request = GlimpseGatewayV1.ListEventsRequest(
                afterSequence: cursor, kinds: FleetRun.providerCallKinds, bundleId: "")
            let page = try await events.list(self.device(device, request)).message
            for event in page.events where start.map({ Self.date(event.at) > $0 }) ?? true {
                if event.kind == "provider_failed" { counts.failed += 1 } else { counts.answered += 1 }
            }
            let next = max(page.lastSequence, page.events.last?.sequence ?? cursor)
            guard !page.events.isEmpty, next > cursor else { return counts }
            cursor = next
        }
    }

    static func date(_ timestamp: GoogleProtobuf.Timestamp?) -> Date {
        guard let timestamp else { return .distantPast }
        return Date(timeIntervalSince1970: Double(timestamp.seconds) + Double(timestamp.nanos) / 1e9)
    }
}
