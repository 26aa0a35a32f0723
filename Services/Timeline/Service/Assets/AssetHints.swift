#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineHosting
import GlimpseMessages
import GlimpseRPC
import GlimpseVocabulary
import ProtoMapping
import RPCCore
import ServiceKit
import Synchronization
import TimelineEngine
import TimelineMapping

/// What glimpse-timeline tells glimpse-asset about the images its widgets show, in the
/// order the entries changed, off the engine's path (a slow or absent glimpse-asset never
/// holds a reload back):
///
/// - the names the current entry shows are pinned by `widget:<placement id>` (pinned blobs
///   are never evicted, so a widget on screen keeps its images);
/// - the names its upcoming entries show are prefetched (present ones become most recently
///   used; the answer's unknown and evicted ones are logged: the app must put them);
/// - a removed placement's pins are released.
///
/// A widget that shows no image costs no call, nor does a change that leaves a widget's
/// names as they were. Hints are best effort: a failure is logged and the next change of
/// the placement sends its hints again.
package final class AssetHints: Sendable {
    enum Hint: Sendable {
        case shown(PlacementID, AppID)
        case removed(PlacementID, AppID)
    }

    private let continuation: AsyncStream<Hint>.Continuation
    private let worker: Task<Void, Never>

    /// Nil without an address: no hint is ever sent.
    init?(outbound: Outbound, connections: Connections, host: TimelineHandlers.Host) {
        guard outbound.address != nil else { return nil }
        let (stream, continuation) = AsyncStream<Hint>.makeStream()
        self.continuation = continuation
        worker = Task {
            var sent: [PlacementID: Sent] = [:]
            for await hint in stream {
                await Self.send(hint, sent: &sent, outbound: outbound, connections: connections, host: host)
            }
        }
    }

    /// The hints of published entry changes: an entry (or the placeholder) shown, or a
    /// placement removed; reload and failure notices carry none.
    func take(_ changes: [GlimpseTimelineV1.EntryChange]) {
        for change in changes {
            let id = PlacementID(rawValue: change.placementId), app = AppID(change.bundleId)
            if change.removed {
                continuation.yield(.removed(id, app))
            } else if change.reload == nil, change.providerError == nil {
                continuation.yield(.shown(id, app))
            }
        }
    }

    /// Ends after the hints already taken are sent.
    func finish() async {
        continuation.finish()
        await worker.value
    }

    /// What was last told of a placement: the names prefetched and the names pinned.
    struct Sent: Sendable, Equatable {
        var names: [String] = []
        var pinned: [String] = []
    }

    private static func send(
        _ hint: Hint, sent: inout [PlacementID: Sent], outbound: Outbound, connections: Connections,
        host: TimelineHandlers.Host
    ) async {
        guard let asset = outbound.client(connections).map(GlimpseAssetV1.AssetService.Client.init(wrapping:)) else {
            return
        }
        let options = CallOptions(timeout: .seconds(5), inheritsDeadline: false)
        switch hint {
        case .removed(let id, let app):
            guard let last = sent.removeValue(forKey: id), !last.pinned.isEmpty else { return }
            do {
                _ = try await asset.unpin(
                    ClientRequest(message: .init(bundleId: app.rawValue, holder: holder(id))), options: options)
            } catch let error as RPCError where error.code == .notFound {
                // The app is gone from glimpse-asset (uninstalled): its pins went with it.
            } catch {
                failed(error, "releasing the images of widget \(id)", outbound: outbound, connections: connections)
            }
        case .shown(let id, let app):
            let now = host.clock.now
            let (current, upcoming) = await host.read { state -> (Set<String>, Set<String>) in
                let current = state.scheduler.currentEntry(of: id)?.wire.view?.assetNames ?? []
                var upcoming = Set<String>()
                for entry in state.scheduler.timeline(of: id)?.entries ?? [] where entry.date > now {
                    upcoming.formUnion(entry.wire.view?.assetNames ?? [])
                }
                return (current, upcoming)
            }
            let names = current.union(upcoming).sorted()
            let last = sent[id] ?? Sent()
            guard names != last.names else { return }
            do {
                var unknown = Set<String>()
                if !names.isEmpty {
                    let answer = try await asset.prefetch(
                        ClientRequest(message: .init(bundleId: app.rawValue, names: names)), options: options
                    ).message
                    unknown = Set(answer.unknown)
                    if !answer.unknown.isEmpty || !answer.evicted.isEmpty {
                        outbound.log(
                            "widget \(id) of \(app) shows images glimpse-asset lacks: "
                                + "never put \(answer.unknown.sorted()), evicted \(answer.evicted.sorted()); the app must put them"
                        )
                    }
                }
                // Only names glimpse-asset knows can be pinned (an evicted one keeps its name).
                let pinning = current.subtracting(unknown).sorted()
                if pinning.isEmpty, !last.pinned.isEmpty {
                    _ = try await asset.unpin(
                        ClientRequest(message: .init(bundleId: app.rawValue, holder: holder(id))), options: options)
                } else if !pinning.isEmpty, pinning != last.pinned {
                    _ = try await asset.pin(
                        ClientRequest(
                            message: .init(
                                bundleId: app.rawValue, holder: holder(id), names: pinning)), options: options)
                }
                sent[id] = Sent(names: names, pinned: pinning)
            } catch {
                sent[id] = Sent(names: [], pinned: last.pinned)  // told again at the next change
                failed(error, "the image hints of widget \(id)", outbound: outbound, connections: connections)
            }
        }
    }

    static func holder(_ id: PlacementID) -> String { "widget:\(id.rawValue)" }

    private static func failed(_ error: any Error, _ what: String, outbound: Outbound, connections: Connections) {
        outbound.log("glimpse-asset: \(what) failed: \(error)")
        // A connection that failed stays failed: the next hint makes a new one.
        if let address = outbound.address, (error as? RPCError)?.code == .unavailable { connections.reset(address) }
    }
}
