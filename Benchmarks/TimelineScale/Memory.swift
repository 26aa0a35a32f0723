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
