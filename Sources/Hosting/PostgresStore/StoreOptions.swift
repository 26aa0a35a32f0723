package import ArgumentParser
package import Foundation
package import EngineHosting
import RPCCore
package import ServiceKit

/// `--store`, for the services whose journal may live in PostgreSQL (glimpse-timeline,
/// glimpse-intent, glimpse-activity and glimpse-asset, whose blob files stay in its data
/// directory; the gateway keeps its own store).
package struct StoreOptions: ParsableArguments, Sendable {
    @Option(
        name: .customLong("store"),
        help:
            "Where the journal and snapshots live: sqlite (the default: <data-dir>/<service>.sqlite) or postgres://user:password@host:port/database[?sslmode=require] — replicas of the service may then share it, one active at a time, the others waiting as standbys (GLIMPSE_STORE)."
    )
    package var store: String?

    package init() {}

    /// Opens the service on its journal: `open(nil)` for the SQLite file, or `open` given
    /// `name`'s journal in PostgreSQL once this replica holds its lease. From the wait for the
    /// lease (a standby) to the end of `open` (the replay), the port answers health as
    /// `standby` says, so that an orchestrator's liveness probe sees the process alive
    /// and its readiness probe sends no call yet. The wait and the statements that take the
    /// lease run on a thread of their own, not the tasks' pool.
    package func opening<T>(
        name: String, standby: StandbyHealth, environment: [String: String]? = nil,
        report: @escaping @Sendable (String) -> Void, _ open: (Journal?) async throws -> T
    ) async throws -> T {
        guard let address = try postgres(environment: environment) else { return try await open(nil) }
        return try await standby.serving {
            let journal = try await Self.onThreadOfItsOwn { try Journal.postgres(address, name: name, report: report) }
            return try await open(journal)
        }
    }

    private static func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = "glimpse-store-open"
            thread.start()
        }
    }

    /// The PostgreSQL database, or nil for the SQLite file.
    package func postgres(environment: [String: String]? = nil) throws(ConfigError) -> PostgresAddress? {
        let source = ConfigSource(environment: environment ?? ProcessEnvironment.current)
        guard let (raw, origin) = source.raw("store", store), raw != "sqlite" else { return nil }
        do {
            return try PostgresAddress(url: raw)
        } catch {
            throw ConfigError(
                "--store: expected sqlite or postgres://user:password@host:port/database: \(error) (\(origin))")
        }
    }
}

extension StoreOptions {
    /// The devices a service serves beside its default one (`DeviceTable`), each in its own
    /// folder `<data-dir>/devices/<id>/`, which `open` is given. On PostgreSQL only the
    /// default device is served yet: a call naming another is FAILED_PRECONDITION.
    package func devices(
        _ config: ServiceConfig,
        open: @escaping @Sendable (_ device: String, _ directory: URL) async throws -> DeviceTable.Served
    ) throws -> DeviceTable {
        let onPostgres = try postgres() != nil
        let root = URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("devices")
        return DeviceTable(root: root, limit: config.maxDevices) { device in
            guard !onPostgres else {
                throw RPCError(
                    code: .failedPrecondition,
                    message:
                        "device \(device): this service keeps its journal in PostgreSQL (--store), where only the default device is served yet; devices beyond it need the SQLite store"
                )
            }
            return try await open(device, root.appendingPathComponent(device))
        }
    }
}
