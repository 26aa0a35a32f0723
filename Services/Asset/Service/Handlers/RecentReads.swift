package import AssetEngine
import Synchronization

/// The names read (Get, Prefetch) since the last journaled command. Reads are not
/// journaled one by one — a Get costs no write — but recency decides what a put evicts,
/// so the next command carries them (`JournalRecord.touched`) and applies them first:
/// live and replay make the same eviction choices. Reads after the last command are lost
/// with a crash, together with nothing they decided.
///
/// Invariant: a name is held once, at its latest read; `take()` gives them oldest first,
/// which touches the catalog's recency list into the same order as every read would.
package final class RecentReads: Sendable {
    private struct State {
        var order: UInt64 = 0
        var latest: [AssetName: UInt64] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    package func note(_ name: AssetName) {
        state.withLock { state in
            state.order += 1
            state.latest[name] = state.order
        }
    }

    package func note(_ names: some Sequence<AssetName>) {
        for name in names { note(name) }
    }

    /// Everything noted since the last take, oldest first.
    package func take() -> [AssetName] {
        let latest = state.withLock { state in
            defer { state.latest = [:] }
            return state.latest
        }
        return latest.sorted { $0.value < $1.value }.map(\.key)
    }

    package var isEmpty: Bool { state.withLock { $0.latest.isEmpty } }
}
