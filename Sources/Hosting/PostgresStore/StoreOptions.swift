package import ArgumentParser
package import EngineHosting
package import ServiceKit

/// `--store`, for the services whose journal may live in PostgreSQL (glimpse-timeline,
/// glimpse-intent, glimpse-activity; glimpse-asset keeps its blobs beside its journal, in
/// its data directory, and the gateway keeps its own store).
package struct StoreOptions: ParsableArguments, Sendable {
    @Option(
        name: .customLong("store"),
        help:
            "Where the journal and snapshots live: sqlite (the default: <data-dir>/<service>.sqlite) or postgres://user:password@host:port/database[?sslmode=require] — replicas of the service may then share it, one active at a time, the others waiting as standbys (GLIMPSE_STORE)."
    )
    package var store: String?

    package init() {}

    /// `name`'s journal in PostgreSQL (waiting for its lease), or nil for the SQLite file.
    package func journal(
        name: String, environment: [String: String]? = nil, report: @escaping @Sendable (String) -> Void
    ) throws -> Journal? {
        try postgres(environment: environment).map { try Journal.postgres($0, name: name, report: report) }
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
