#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine
import Crypto
internal import GlimpseMessages
import GlimpseRPC
internal import RPCCore
import ServiceKit
import ProtoMapping
import Synchronization

/// The Live Activity views the apps build (their `ActivityConfiguration`), fetched once per
/// content state: the key is the activity, a hash of its attributes and state, staleness
/// and the color scheme, so a push that changes the state asks the app again and a screen
/// drawn twice does not. A failed call is remembered for a few seconds so a stopped app does
/// not hold every render up for its timeout.
final class ActivityViewsSource: Sendable {
    struct Key: Hashable {
        var activity: String
        var digest: String
        var stale: Bool
        var scheme: Int32
    }

    enum Outcome {
        case views(GlimpseWidgetV1.ActivityViews)
        case failed(String, at: ContinuousClock.Instant)
    }

    private let cache = Mutex<[Key: Outcome]>([:])
    /// The calls out now, by key: renders that need the same views share one call.
    private let inFlight = Mutex<[Key: Task<Outcome, Never>]>([:])
    private let connections: Connections
    static let retryAfter: Duration = .seconds(5)
    /// The device's deadline for an app's views (`ActivityViewsDeadline`, `--views-deadline`).
    let timeout: Duration
    static let capacity = 1_024

    init(connections: Connections, timeout: Duration = ActivityViewsDeadline.timeout) {
        self.connections = connections
        self.timeout = timeout
    }

    /// The views of several activities at once: one app's slow endpoint holds up only its own
    /// activities (each call is bounded by the device's deadline), never the others'.
    func views(
        of activities: [GlimpseActivityV1.Activity], endpoints: [String: String], now: Date,
        scheme: GlimpseAppV1.ColorScheme
    ) async -> [String: Result<GlimpseWidgetV1.ActivityViews, RPCError>] {
        await withTaskGroup(of: (String, Result<GlimpseWidgetV1.ActivityViews, RPCError>?).self) { group in
            for activity in activities {
                guard let endpoint = endpoints[activity.activityId] else { continue }
                group.addTask {
                    (activity.activityId, await self.views(of: activity, endpoint: endpoint, now: now, scheme: scheme))
                }
            }
            var results: [String: Result<GlimpseWidgetV1.ActivityViews, RPCError>] = [:]
            for await (id, result) in group { results[id] = result }
            return results
        }
    }

    /// The views of `activity`, or why there are none.
    func views(
        of activity: GlimpseActivityV1.Activity, endpoint: String, now: Date, scheme: GlimpseAppV1.ColorScheme
    ) async -> Result<GlimpseWidgetV1.ActivityViews, RPCError> {
        let stale = activity.content?.staleDate.map { Date($0) <= now } ?? false
        let state = activity.content?.stateJson ?? ""
        let digest = SHA256.hash(
            data: Array("\(activity.attributesType)\u{0}\(activity.attributesJson)\u{0}\(state)".utf8)
        )
        .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let key = Key(activity: activity.activityId, digest: digest, stale: stale, scheme: scheme.rawValue)
        switch cache.withLock({ $0[key] }) {
        case .views(let views)?:
            return .success(views)
        case .failed(let message, let at)? where ContinuousClock.now - at < Self.retryAfter:
            return .failure(RPCError(code: .unavailable, message: message))
        default:
            break
        }
        var request = GlimpseAppV1.ActivityViewsRequest()
        request.activityId = activity.activityId
        request.attributesType = activity.attributesType
        request.attributesJson = activity.attributesJson
        request.stateJson = state
        request.isStale = stale
        request.now = GoogleProtobuf.Timestamp(now)
        request.colorScheme = scheme
        let asked = request
        let call = inFlight.withLock { inFlight in
            if let running = inFlight[key] { return running }
            // Shared by every render that needs these views; it ends within the deadline.
            let task = Task { [self, asked, key, endpoint] in await fetch(asked, key: key, endpoint: endpoint) }
            inFlight[key] = task
            return task
        }
        switch await call.value {
        case .views(let views): return .success(views)
        case .failed(let message, _): return .failure(RPCError(code: .unavailable, message: message))
        }
    }

    private func fetch(_ request: GlimpseAppV1.ActivityViewsRequest, key: Key, endpoint: String) async -> Outcome {
        let outcome: Outcome
        do {
            guard let address = ServiceAddress(parsing: endpoint), let client = connections.client(for: address) else {
                throw RPCError(code: .unavailable, message: "no usable address")
            }
            let response = try await GlimpseAppV1.ActivityConfiguration.Client(wrapping: client)
                .views(ClientRequest(message: request), options: CallOptions(timeout: timeout, inheritsDeadline: false))
                .message
            let views = response.views ?? .init()
            if let violation = ContentLimits.violation(of: views) {
                throw RPCError(code: .resourceExhausted, message: violation)
            }
            outcome = .views(views)
        } catch {
            if let rpc = error as? RPCError, rpc.code != .unavailable {
            } else if let address = ServiceAddress(parsing: endpoint) {
                connections.reset(address)
            }
            let reason = (error as? RPCError).map { "\($0.code): \($0.message)" } ?? "\(error)"
            outcome = .failed("the app's ActivityConfiguration at \(endpoint): \(reason)", at: .now)
        }
        cache.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = outcome
        }
        inFlight.withLock { _ = $0.removeValue(forKey: key) }
        return outcome
    }
}
