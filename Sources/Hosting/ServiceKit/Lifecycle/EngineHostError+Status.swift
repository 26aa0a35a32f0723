package import EngineHosting
package import RPCCore

/// A call whose input the engine host could not take answers with a status, not UNKNOWN:
/// a store that failed (its journal could not take the write, or the host stopped for it)
/// is UNAVAILABLE, which clients retry — the process restarts on its journal, or a standby
/// takes over (`--store postgres://…`). The store's own error stays in the service's log.
extension EngineHostError: RPCStatusConvertible {
    package var rpcStatus: Status {
        switch self {
        case .journalFailed, .closed:
            Status(
                code: .unavailable,
                message: "the service cannot journal inputs now (its store failed); it restarts on its journal: retry")
        case .notManual:
            Status(
                code: .failedPrecondition,
                message: "this service follows the system clock (start it with --clock manual)")
        case .wouldGoBackwards:
            Status(code: .invalidArgument, message: "\(self)")
        case .noProgress, .replayDiverged, .snapshotUnreadable:
            Status(code: .internal, message: "the service's engine stopped: \(self)")
        }
    }
}
