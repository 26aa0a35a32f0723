#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where log lines go: one whole line per `write`, never interleaved with another
/// (records come from many tasks at once).
package struct LogOutput: Sendable {
    let writeLine: @Sendable (String) -> Void

    /// Each line handed to `write` (tests collect them).
    package init(_ write: @escaping @Sendable (String) -> Void) {
        self.writeLine = write
    }

    package func write(_ line: String) { writeLine(line) }

    /// Standard error: standard output carries what scripts read (`listening on port N`).
    package static let standardError = LogOutput { line in
        let bytes = Array((line + "\n").utf8)
        lock.withLock { _ in
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 {
                        if written < 0 && errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }

    private static let lock = Mutex(())
}
