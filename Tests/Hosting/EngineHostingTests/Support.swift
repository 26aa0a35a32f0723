import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary

typealias CounterHost = EngineHost<Counter, CounterCommand>

let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

/// A fresh directory under the system's temporary directory, for one test's journal.
func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("engine-host-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

func openCounterHost(
    _ journal: Journal, mode: HostClock.Mode = .manual(start: start), log: EffectLog = EffectLog(),
    snapshots: SnapshotPolicy? = nil, aside: Bool = false
) throws -> CounterHost {
    let clock = HostClock(mode)
    return try CounterHost(
        engine: Counter(clock: clock), clock: clock, journal: journal,
        snapshotting: snapshots.map { policy in
            var snapshotting = Snapshotting<Counter>(policy: policy)
            snapshotting.encodesAside = aside
            return snapshotting
        },
        apply: CounterCommand.apply, perform: { _, effects in await log.perform(effects) })
}
