#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import AssetEngine
import Crypto
package import EngineHosting
import GlimpseMessages
import GlimpseVocabulary
package import ServiceKit

/// glimpse-asset assembled: the journal (`<data-dir>/asset.sqlite`: names, pins, apps and
/// tokens, the budget), the blob files (`<data-dir>/blobs/`, content-addressed), the
/// engine host, and the handlers that serve them.
///
/// Invariants, once `open` returns:
/// - Every present blob of the catalog has its file; no other file is under `blobs/`, and
///   `staging/` is empty (crash leftovers are finished or removed by `reconcile`).
/// - Blob effects are carried out in journal order, synchronously on the host (nothing
///   else runs between a command and its file work): a delete and a later commit of the
///   same hash leave the file in place.
package struct AssetServer: Sendable {
    package let host: AssetHandlers.Host
    package let blobs: BlobFiles
    package let reads: RecentReads
    package let handlers: AssetHandlers
    package let clock: ClockService<AssetState, AssetCommand>

    /// Opens (restores and replays) the journal and the blob files under `directory`,
    /// reconciles them, saves snapshots as `snapshots` says (failures go to `log`), and moves the catalog to `settings.limits.byteBudget` (journaled, evicting
    /// down to it) when the service last ran with another budget.
    /// `given`: the journal elsewhere (PostgreSQL, its lease held) instead of
    /// `<directory>/asset.sqlite`; the blob files stay under `directory`, which replicas
    /// then share.
    package static func open(
        directory: URL, journal given: Journal? = nil, clock: HostClock, settings: AssetSettings = .defaults,
        log: @escaping @Sendable (String) -> Void = { _ in }, snapshots: SnapshotPolicy = .defaults
    ) async throws -> AssetServer {
        let journal = try given ?? Journal(directory: directory, name: "asset")
        let blobs = try BlobFiles(directory: directory)
        // Replay starts from the default budget: the journal (or its snapshot) records every change of it.
        var initial = settings.limits
        initial.byteBudget = AssetLimits.defaults.byteBudget
        let host = try AssetHandlers.Host(
            engine: AssetState(catalog: AssetCatalog(clock: clock, limits: initial)),
            clock: clock, journal: journal, snapshotting: Snapshotting(policy: snapshots, report: log),
            apply: AssetState.apply,
            perform: { _, effects in Self.perform(effects, blobs: blobs, log: log) })
        let reads = RecentReads()
        let handlers = AssetHandlers(host: host, blobs: blobs, reads: reads, settings: settings)
        let server = AssetServer(
            host: host, blobs: blobs, reads: reads, handlers: handlers,
            clock: ClockService(host: host, watermark: { 0 }))
        try await server.reconcile(log: log)
        if await host.read({ $0.catalog.limits.byteBudget }) != settings.limits.byteBudget {
            _ = try await host.submit(AssetCommand(.byteBudget(UInt64(settings.limits.byteBudget))))
        }
        return server
    }

    /// Carries out blob effects in order. Synchronous on purpose: it runs on the host's
    /// executor before the next input is applied.
    static func perform(_ effects: [AssetEffect], blobs: BlobFiles, log: @Sendable (String) -> Void) {
        for effect in effects {
            do {
                switch effect {
                case .commit(let hash, let upload?): try blobs.commitStaged(upload, as: hash)
                case .commit(_, nil): break
                case .delete(let hash): try blobs.delete(hash)
                }
            } catch {
                // A failed commit shows to its Put (the file is not there); a failed delete
                // leaves an orphan that the next start removes.
                log("blob file work failed: \(effect): \(error)")
            }
        }
    }

    /// Brings the files in line with the replayed catalog after a crash: a sealed upload
    /// whose name was journaled but not yet renamed is renamed into place; any other staged
    /// file, and every blob file no present name holds, is removed; a present blob whose
    /// file is missing or of the wrong size is journaled as lost (its names become evicted).
    func reconcile(log: @Sendable (String) -> Void) async throws {
        let present = await host.read { $0.presentBlobs }
        for file in try blobs.stagingFileNames() {
            let path = blobs.stagingDirectory + "/" + file
            if let bytes = FileManager.default.contents(atPath: path) {
                let hash = ContentHash.of([UInt8](bytes))
                if present[hash] != nil, !blobs.contains(hash) {
                    try FileManager.default.moveItem(atPath: path, toPath: blobs.path(of: hash))
                    try blobs.syncDirectory(blobs.blobsDirectory)
                    log("finished the commit of \(hash) interrupted by a crash")
                    continue
                }
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        for file in try blobs.blobFileNames() {
            guard let hash = ContentHash(hex: file), file == hash.hex, present[hash] != nil else {
                try? FileManager.default.removeItem(atPath: blobs.blobsDirectory + "/" + file)
                log("removed orphan blob file \(file)")
                continue
            }
        }
        for (hash, size) in present.sorted(by: { $0.key < $1.key }) {
            let onDisk = (try? FileManager.default.attributesOfItem(atPath: blobs.path(of: hash))[.size] as? Int) ?? nil
            guard onDisk != size else { continue }
            log("blob file \(hash) is \(onDisk.map { "\($0) bytes, not \(size)" } ?? "missing"): its names are evicted")
            _ = try await host.submit(AssetCommand(.blobLost(hash.hex)))
        }
    }

    package func close() async throws {
        try await host.close()
    }
}
