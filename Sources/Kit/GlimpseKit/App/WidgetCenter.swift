import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Synchronization

/// WidgetKit's `WidgetCenter.shared`. Inside an intent's `perform()` a reload is the tap's
/// (at once, not charged to the budget, as on a phone); anywhere else it is the app's own
/// request to the gateway (charged, spaced).
public final class WidgetCenter: Sendable {
    public static let shared = WidgetCenter()

    /// A placed widget of the app.
    public struct WidgetInfo: Sendable, Hashable {
        public let kind: String
        public let family: WidgetFamily
        public let placementID: UInt64
    }

    public func reloadTimelines(ofKind kind: String) {
        if let tap = TapReloads.current {
            tap.add(kind: kind)
            return
        }
        send("reloadTimelines(ofKind: \(kind))") { center, metadata in
            _ = try await center.reloadTimelines(
                ClientRequest(message: GlimpseTimelineV1.ReloadTimelinesRequest(kind: kind), metadata: metadata),
                options: .appCall)
        }
    }

    public func reloadAllTimelines() {
        if let tap = TapReloads.current {
            tap.addAll()
            return
        }
        send("reloadAllTimelines()") { center, metadata in
            _ = try await center.reloadAllTimelines(
                ClientRequest(message: GlimpseTimelineV1.ReloadAllTimelinesRequest(), metadata: metadata),
                options: .appCall)
        }
    }

    /// The app's placed widgets.
    public func currentConfigurations() async throws -> [WidgetInfo] {
        guard let link = GatewayLink.current.withLock({ $0 }) else { return [] }
        let center = GlimpseGatewayV1.WidgetCenter.Client(wrapping: link.client)
        let answer = try await link.withToken { metadata in
            try await center.getCurrentConfigurations(
                ClientRequest(message: GlimpseTimelineV1.GetCurrentConfigurationsRequest(), metadata: metadata),
                options: .appCall
            ).message
        }
        return (answer?.widgets ?? []).compactMap { widget in
            WidgetFamily(widget.family).map {
                WidgetInfo(kind: widget.kind, family: $0, placementID: widget.placementId)
            }
        }
    }

    public func getCurrentConfigurations(_ completion: @escaping @Sendable (Result<[WidgetInfo], any Error>) -> Void) {
        Task {
            do { completion(.success(try await currentConfigurations())) } catch { completion(.failure(error)) }
        }
    }

    /// The app's own call: made in the background, as WidgetKit's returns at once; a failure
    /// is said on standard error.
    private func send(
        _ what: String,
        _ call: @escaping @Sendable (GlimpseGatewayV1.WidgetCenter.Client, Metadata) async throws -> Void
    ) {
        guard let link = GatewayLink.current.withLock({ $0 }) else {
            FileHandle.standardError.write(Data("WidgetCenter.\(what): not serving yet, nothing reloaded\n".utf8))
            return
        }
        Task {
            let center = GlimpseGatewayV1.WidgetCenter.Client(wrapping: link.client)
            do {
                _ = try await link.withToken { metadata in try await call(center, metadata) }
            } catch {
                FileHandle.standardError.write(Data("WidgetCenter.\(what): \(error)\n".utf8))
            }
        }
    }
}

extension CallOptions {
    /// An app's call to the gateway.
    static var appCall: CallOptions { CallOptions(timeout: .seconds(10)) }
}

/// What one `perform()` asked WidgetCenter to reload.
final class TapReloads: Sendable {
    private let state = Mutex<(kinds: [String], all: Bool)>(([], false))

    @TaskLocal static var current: TapReloads?

    func add(kind: String) {
        state.withLock { state in if !state.kinds.contains(kind) { state.kinds.append(kind) } }
    }
    func addAll() { state.withLock { $0.all = true } }
    var reloads: (kinds: [String], all: Bool) { state.withLock { $0 } }
}

extension GatewayLink {
    /// The serving process's link to the gateway.
    static let current = Mutex<GatewayLink?>(nil)

    /// This link becomes the process's: WidgetCenter, ActivityKit and the App Group go through
    /// it (GlimpseApp.serve does this; a process serving GlimpseKit's services beside its own
    /// calls it).
    package func makeCurrent() { Self.current.withLock { $0 = self } }
}
