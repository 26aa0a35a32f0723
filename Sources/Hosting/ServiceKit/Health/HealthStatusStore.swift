package import GlimpseMessages
import Synchronization

/// The serving status of each service a server hosts, behind `grpc.health.v1.Health`.
///
/// The empty name stands for the server as a whole. `Check` of a name never registered is
/// NOT_FOUND; `Watch` of it reports SERVICE_UNKNOWN and keeps watching, as health.proto
/// asks. Watchers see every change, newest last; a slow watcher sees the latest status
/// rather than a backlog.
package final class HealthStatusStore: Sendable {
    package typealias Status = GrpcHealthV1.HealthCheckResponse.ServingStatus

    private struct State {
        var statuses: [String: Status] = [:]
        var watchers: [String: [Int: AsyncStream<Status>.Continuation]] = [:]
        var nextWatcher = 0
    }

    private let state = Mutex(State())

    package init(_ initial: [String: Status] = ["": .serving]) {
        state.withLock { $0.statuses = initial }
    }

    /// The names registered, the server's own ("") included.
    package var names: [String] {
        state.withLock { $0.statuses.keys.sorted() }
    }

    /// The status of `service`, or nil when it was never registered.
    package func status(of service: String) -> Status? {
        state.withLock { $0.statuses[service] }
    }

    package func set(_ status: Status, for service: String) {
        let watchers = state.withLock { state -> [AsyncStream<Status>.Continuation] in
            guard state.statuses[service] != status else { return [] }
            state.statuses[service] = status
            return Array(state.watchers[service, default: [:]].values)
        }
        for watcher in watchers { watcher.yield(status) }
    }

    /// Marks every service NOT_SERVING (graceful shutdown) and ends all watches.
    package func shutDown() {
        let watchers = state.withLock { state -> [AsyncStream<Status>.Continuation] in
            for key in state.statuses.keys { state.statuses[key] = .notServing }
            defer { state.watchers = [:] }
            return state.watchers.values.flatMap(\.values)
        }
        for watcher in watchers {
            watcher.yield(.notServing)
            watcher.finish()
        }
    }

    /// The current status (SERVICE_UNKNOWN when unregistered), then every change.
    package func watch(_ service: String) -> AsyncStream<Status> {
        let (stream, continuation) = AsyncStream.makeStream(of: Status.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int in
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[service, default: [:]][id] = continuation
            continuation.yield(state.statuses[service] ?? .serviceUnknown)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.watchers[service]?.removeValue(forKey: id) }
        }
        return stream
    }
}
