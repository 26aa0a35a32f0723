package import Logging
import Synchronization

/// A log for what hostile traffic can make happen at any rate (GOAWAYs, floods, failed
/// accepts, followers ended): of each kind, at most `burst` records per `interval` are
/// written; the rest are counted, and the next record of that kind that goes out says how
/// many were held back. A flood of bad connections then costs a few lines, not a disk.
package final class RateLimitedLog: Sendable {
    package let logger: Logger
    package let burst: Int
    package let interval: Duration

    private struct Window {
        var start: ContinuousClock.Instant
        var written = 0
        var heldBack = 0
    }

    private let windows = Mutex<[String: Window]>([:])

    package init(logger: Logger, burst: Int = 5, interval: Duration = .seconds(10)) {
        self.logger = logger
        self.burst = max(1, burst)
        self.interval = interval
    }

    /// Writes the record unless `kind` already had `burst` records in the current window.
    package func log(
        _ kind: String, level: Logger.Level, _ message: @autoclosure () -> String, metadata: Logger.Metadata = [:]
    ) {
        let now = ContinuousClock.now
        let heldBack: Int? = windows.withLock { windows in
            var window = windows[kind] ?? Window(start: now)
            if now - window.start >= interval {
                window = Window(start: now, written: 0, heldBack: window.heldBack)
            }
            defer { windows[kind] = window }
            guard window.written < burst else {
                window.heldBack += 1
                return nil
            }
            window.written += 1
            defer { window.heldBack = 0 }
            return window.heldBack
        }
        guard let heldBack else { return }
        var metadata = metadata
        metadata["kind"] = "\(kind)"
        if heldBack > 0 { metadata["held_back"] = "\(heldBack)" }
        logger.log(
            level: level, "\(message())\(heldBack > 0 ? " (and \(heldBack) more not logged)" : "")", metadata: metadata)
    }
}
