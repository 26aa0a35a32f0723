package import ArgumentParser
package import EngineHosting

/// `--snapshot-every`, for the services that journal through an engine host (the gateway
/// keeps its own store and does not take it).
package struct SnapshotOptions: ParsableArguments, Sendable {
    @Option(
        name: .customLong("snapshot-every"),
        help:
            "Save the engine's state every this many journaled inputs (once the journal since the last save is as large as it), and at a graceful stop, dropping the entries it covers; 0 never (default 10000; GLIMPSE_SNAPSHOT_EVERY)."
    )
    package var snapshotEvery: String?

    package init() {}

    package func policy(environment: [String: String]? = nil) throws(ConfigError) -> SnapshotPolicy {
        let source = ConfigSource(environment: environment ?? ProcessEnvironment.current)
        let every = try source.value(
            "snapshot-every", snapshotEvery, expected: "a number of inputs (0: never)",
            default: SnapshotPolicy.defaults.every
        ) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        return every == 0 ? .off : SnapshotPolicy(every: every)
    }
}
