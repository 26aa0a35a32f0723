package import GlimpseMessages
package import GlimpseRPC
package import RPCCore
package import ServiceKit
import ProtoMapping

/// The four services behind the gateway, by address, over one kept connection each.
package final class Upstreams: Sendable {
    package enum Service: String, Sendable, CaseIterable, Comparable {
        case timeline, intent, activity, asset
        package static func < (a: Service, b: Service) -> Bool { a.order < b.order }
        private var order: Int { Self.allCases.firstIndex(of: self)! }
    }

    package struct Addresses: Sendable {
        package var timeline = ServiceAddress(host: "127.0.0.1", port: 7701)
        package var intent = ServiceAddress(host: "127.0.0.1", port: 7702)
        package var activity = ServiceAddress(host: "127.0.0.1", port: 7703)
        package var asset = ServiceAddress(host: "127.0.0.1", port: 7704)

        package init() {}

        package subscript(service: Service) -> ServiceAddress {
            get {
                switch service {
                case .timeline: timeline
                case .intent: intent
                case .activity: activity
                case .asset: asset
                }
            }
            set {
                switch service {
                case .timeline: timeline = newValue
                case .intent: intent = newValue
                case .activity: activity = newValue
                case .asset: asset = newValue
                }
            }
        }
    }

    package let addresses: Addresses
    /// glimpse-timeline answers a placement's whole timeline (up to 10 MiB).
    package let connections: Connections
    /// Carried by every device call to the services (an app's call carries the app's
    /// token for that service instead).
    package let deviceKey: DeviceKey?

    /// The device whose calls these are (`DeviceScope`), nil for the default device: every
    /// call names it, so each service answers from that device's state.
    package let device: String?
    /// Whether `shutdown()` closes the connections: a device's upstreams share the
    /// default's, which outlive it.
    private let ownsConnections: Bool

    /// `transports`: sockets as deployed; a test may wire the services in-process.
    package init(addresses: Addresses, deviceKey: DeviceKey? = nil, transports: Connections.Transports = .sockets) {
        self.addresses = addresses
        self.deviceKey = deviceKey
        connections = Connections(maxReceiveMessageSize: ContentLimits.timelineMessageBytes, transports: transports)
        device = nil
        ownsConnections = true
    }

    private init(sharing upstreams: Upstreams, device: String, addresses: Addresses) {
        self.addresses = addresses
        deviceKey = upstreams.deviceKey
        connections = upstreams.connections
        self.device = device
        ownsConnections = false
    }

    /// The same services (or its shard's, `addresses`) over the same pool of connections,
    /// for `device`'s calls.
    package func forDevice(_ device: String, addresses: Addresses? = nil) -> Upstreams {
        Upstreams(sharing: self, device: device, addresses: addresses ?? self.addresses)
    }

    func connection(_ service: Service) throws(RPCError) -> GRPCClient {
        guard let client = connections.client(for: addresses[service]) else {
            throw RPCError(
                code: .unavailable, message: "glimpse-\(service.rawValue): no usable address (\(addresses[service]))")
        }
        var metadata = deviceKey?.metadata ?? Metadata()
        if let device { metadata.addString(device, forKey: DeviceScope.metadataKey) }
        return client.adding(metadata)
    }

    package func timeline() throws(RPCError) -> GlimpseTimelineV1.TimelineService.Client {
        .init(wrapping: try connection(.timeline))
    }
    package func intent() throws(RPCError) -> GlimpseIntentV1.IntentService.Client {
        .init(wrapping: try connection(.intent))
    }
    package func activity() throws(RPCError) -> GlimpseActivityV1.ActivityService.Client {
        .init(wrapping: try connection(.activity))
    }
    package func asset() throws(RPCError) -> GlimpseAssetV1.AssetService.Client {
        .init(wrapping: try connection(.asset))
    }
    package func clock(_ service: Service) throws(RPCError) -> GlimpseClockV1.Clock.Client {
        .init(wrapping: try connection(service))
    }
    package func devices(_ service: Service) throws(RPCError) -> GlimpseDeviceV1.Devices.Client {
        .init(wrapping: try connection(service))
    }

    /// The longest the gateway waits for one service call (a ceiling: a caller's shorter
    /// deadline flows on as it is).
    package static let hopCeiling: Duration = .seconds(60)

    /// Runs one call to `service` with what is left of the caller's deadline, `timeout` its
    /// ceiling; any failure becomes an `RPCError` that names the service (a status the
    /// service answered keeps its code), and a deadline says whose ran out.
    package func call<T: Sendable>(
        _ service: Service, timeout: Duration = Upstreams.hopCeiling,
        _ body: (CallOptions) async throws -> T
    ) async throws(RPCError) -> T {
        let options = CallOptions(timeout: timeout)
        let callersIsShorter = CallDeadline.remaining.map { $0 < timeout } ?? false
        do {
            return try await body(options)
        } catch let error as RPCError {
            if error.code == .unavailable {
                // A connection made while the service was down may stay failed: a new one next time.
                connections.reset(addresses[service])
            }
            if error.code == .deadlineExceeded {
                let whose =
                    callersIsShorter
                    ? "the caller's deadline passed" : "no answer within the gateway's \(timeout) for this call"
                throw RPCError(
                    code: error.code,
                    message: "glimpse-\(service.rawValue) at \(addresses[service]): \(whose) (\(error.message))")
            }
            if error.code == .unavailable {
                throw RPCError(
                    code: error.code, message: "glimpse-\(service.rawValue) at \(addresses[service]): \(error.message)")
            }
            // The status and its typed reason travel on; the service's other trailers do not.
            throw error.passedOn
        } catch {
            connections.reset(addresses[service])
            throw RPCError(
                code: .unavailable,
                message: "glimpse-\(service.rawValue) at \(addresses[service]) is unreachable: \(error)")
        }
    }

    /// Metadata carrying an app's token for one service.
    static func bearer(_ token: String) -> Metadata {
        var metadata = Metadata()
        metadata.addString("Bearer \(token)", forKey: "authorization")
        return metadata
    }

    package func shutdown() async {
        if ownsConnections { await connections.shutdown() }
    }
}
