import Foundation

/// Resident set size of this process, from /proc/self/status (VmRSS), in bytes.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kb = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kb * 1024
    }
    return 0
}

#if canImport(Glibc)
import Glibc

/// Returns freed heap pages to the system (glibc `malloc_trim`), so resident size shows
/// live memory rather than the allocator's retained free space.
/// (Looked up at run time: Swift's Glibc module does not import malloc.h.)
func trimHeap() {
    typealias MallocTrim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}
#else
func trimHeap() {}
#endif
