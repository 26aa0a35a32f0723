#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A journal kept elsewhere than in SQLite (PostgreSQL: the PostgresStore target), with the
/// invariants `Journal` states. Each method is what `Journal`'s of the same name does.
package protocol JournalBackend: Sendable {
    /// Where it is, for logs and errors (no password).
    var location: String { get }
    /// Runs `change`; only a change that did not throw gets its entry, committed before return.
    func append<T>(
        _ kind: JournalEntry.Kind, instant: Date, payload: [UInt8], applying change: () throws -> T
    ) throws -> (sequence: Int64, result: T)
    func appendBatch<T>(
        instant: Date, payloads: [[UInt8]], previous: Int64, applying change: (Int) throws -> T
    ) throws -> (sequence: Int64, results: [Result<T, any Error>])
    func forEach(after sequence: Int64, _ body: (JournalEntry) throws -> Void) throws
    func count() throws -> Int
    func latestSnapshot() throws -> JournalSnapshot?
    func writeSnapshot(_ snapshot: JournalSnapshot, archiving records: [ArchivedRecord], keep: Int) throws -> Bool
    func isComplete(through sequence: Int64) throws -> Bool
    func archived(after sequence: Int64, key: String?, limit: Int) throws -> [ArchivedRecord]
    func close() throws
}
