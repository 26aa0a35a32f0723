#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where the tool writes: standard output and standard error in the executable, a
/// buffer in tests.
package protocol TextOutput: Sendable {
    func write(_ text: String)
}

/// A file descriptor of the process (1 or 2).
package struct FileDescriptorOutput: TextOutput {
    package let descriptor: Int32

    package init(descriptor: Int32) { self.descriptor = descriptor }

    package static let standardOutput = FileDescriptorOutput(descriptor: 1)
    package static let standardError = FileDescriptorOutput(descriptor: 2)

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = unsafe_write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing more to say
                }
                offset += written
            }
        }
    }

    /// Whether the descriptor is a terminal (progress lines go to a terminal only).
    package var isTerminal: Bool { isatty(descriptor) == 1 }
}

private func unsafe_write(_ fd: Int32, _ pointer: UnsafePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(fd, pointer, count)
    #elseif canImport(Musl)
    Musl.write(fd, pointer, count)
    #else
    Glibc.write(fd, pointer, count)
    #endif
}

/// Collects what is written (tests read `text`).
package final class CapturedOutput: TextOutput {
    private let storage = Mutex("")

    package init() {}

    package func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    package var text: String { storage.withLock { $0 } }
}
