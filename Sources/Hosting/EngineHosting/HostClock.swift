#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary
import Synchronization

/// The clock an engine host controls; its engine is constructed with it.
///
/// Invariants:
/// - `now` never goes backwards, across modes and across a restart: it holds at the latest
///   instant it reported (or was pinned to) until its source passes it.
/// - While the host applies an input it pins `now` to that input's journaled instant, so
///   the engine reads one instant per input, live and in replay alike: replay is exact.
package final class HostClock: WallClock {
    package enum Mode: Sendable, Equatable {
        /// Follows the operating system's clock (monotonic, see `SystemClock`).
        case system
        /// Frozen at `start` until the host advances it.
        case manual(start: Date)
    }

    private struct State {
        var manual: Date?
        var pinned: Date?
        var latest: Date
    }

    package let mode: Mode
    private let system: SystemClock?
    private let state: Mutex<State>

    package init(_ mode: Mode, system: SystemClock = SystemClock()) {
        self.mode = mode
        switch mode {
        case .system:
            self.system = system
            state = Mutex(State(manual: nil, pinned: nil, latest: .distantPast))
        case .manual(let start):
            self.system = nil
            state = Mutex(State(manual: start, pinned: nil, latest: start))
        }
    }

    package var now: Date {
        let reading = system?.now
        return state.withLock { state in
            if let pinned = state.pinned { return pinned }
            let candidate = reading ?? state.manual ?? state.latest
            if candidate > state.latest { state.latest = candidate }
            return state.latest
        }
    }

    package var isManual: Bool { system == nil }

    /// Holds `now` at `instant` until `unpin()`; never earlier than what was already reported.
    func pin(_ instant: Date) {
        state.withLock { state in
            let at = max(instant, state.latest)
            state.pinned = at
            state.latest = at
        }
    }

    func unpin() {
        state.withLock { $0.pinned = nil }
    }

    /// Moves a manual clock to `target` (never back).
    func setManual(_ target: Date) {
        state.withLock { state in
            let at = max(target, state.latest)
            state.manual = at
            state.latest = at
        }
    }
}
