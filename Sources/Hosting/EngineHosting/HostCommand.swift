#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// An input a service sends its engine through the host: the journal keeps its bytes, and
/// replay decodes them and applies them again. Services encode as protobuf or JSON.
///
/// `Answer` is what the call returns to its caller (not journaled: replay recomputes it).
/// A service with several kinds of answers makes it an enum.
package protocol HostCommand: Sendable {
    associatedtype Answer: Sendable = Void
    func encode() throws -> [UInt8]
    static func decode(_ bytes: [UInt8]) throws -> Self
}

package enum EngineHostError: Error, Equatable {
    /// A journaled command failed to apply again on replay: the engine or the command
    /// encoding changed incompatibly since it was journaled.
    case replayDiverged(sequence: Int64)
    /// The journal could not take a write after the engine took the input; the engine is
    /// ahead of the journal, so the host refuses further inputs until it is reopened.
    case journalFailed(String)
    /// `advance(to:)` on a host whose clock follows the system.
    case notManual
    /// `advance(to:)` to an instant before the clock's `now`.
    case wouldGoBackwards(now: Date, requested: Date)
    /// Work stayed due at one instant after this many firings in a row (an engine loop).
    case noProgress(at: Date, firings: Int)
    /// The host was closed.
    case closed
    /// The journal's snapshot cannot be read (another format, or bytes that do not decode)
    /// and the entries before it are gone, so there is nothing to start from.
    case snapshotUnreadable(path: String, sequence: Int64, reason: String)
}

extension EngineHostError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .replayDiverged(let sequence):
            "journal entry \(sequence) no longer applies: the engine or the command encoding changed incompatibly"
        case .journalFailed(let reason): "the journal could not take a write: \(reason)"
        case .notManual: "the clock follows the system; only a manual clock advances"
        case .wouldGoBackwards(let now, let requested): "cannot move the clock back from \(now) to \(requested)"
        case .noProgress(let at, let firings): "work stayed due at \(at) after \(firings) firings"
        case .closed: "the engine host is closed"
        case .snapshotUnreadable(let path, let sequence, let reason):
            "\(path): the snapshot of the state at entry \(sequence) cannot be read (\(reason)), and the entries "
                + "before it were compacted away. Run the version that wrote it, or move the file aside to start empty."
        }
    }
}
