import DequeModule
import GlimpseVocabulary

/// Results of finished taps by idempotency key, kept for a window of clock time so that
/// memory stays bounded; and the keys of taps still running.
///
/// Invariants: `expiries` is in completion order, which is expiry order (the clock never
/// goes back and the window is fixed); a key has at most one record; a key is never both
/// running and recorded.
struct IdempotencyLedger: Codable {
    struct Key: Hashable, Codable {
        var app: AppID
        var key: String
    }

    /// When a record's window ends.
    struct Expiry: Codable {
        var at: Double
        var key: Key
    }

    private var records: [Key: TapCompletion] = [:]
    private var expiries = Deque<Expiry>()
    private var running: Set<Key> = []

    var recordCount: Int { records.count }

    /// When the oldest record expires; infinity when none is kept.
    var nextExpiry: Double { expiries.first?.at ?? .infinity }

    func result(for key: Key) -> TapCompletion? { records[key] }
    func isRunning(_ key: Key) -> Bool { running.contains(key) }

    mutating func begin(_ key: Key) { running.insert(key) }

    mutating func finish(_ key: Key, _ completion: TapCompletion, expiresAt: Double) {
        running.remove(key)
        records[key] = completion
        expiries.append(Expiry(at: expiresAt, key: key))
    }

    /// Forgets records whose window has passed.
    mutating func expire(at now: Double) {
        while let first = expiries.first, first.at <= now {
            expiries.removeFirst()
            records[first.key] = nil
        }
    }
}
