package import Foundation

/// A Glimpse executable started by a benchmark: it prints `listening on port N` first.
package struct ServiceProcess {
    package let process: Process
    package let port: Int

    /// Starts `path` with `arguments`; nil (after printing why) when it does not report a port.
    package static func start(_ path: String, _ arguments: [String]) throws -> ServiceProcess? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = ""
        while !line.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = Int(line.split(separator: "\n").first?.split(separator: " ").last ?? "") else {
            print("\(path) did not start: \(line)")
            process.terminate()
            return nil
        }
        return ServiceProcess(process: process, port: port)
    }

    package var pid: Int32 { process.processIdentifier }

    package func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// Resident bytes now (VmRSS).
    package var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb * 1024
    }

    /// User plus system CPU seconds so far (/proc/PID/stat, clock ticks of 1/100 s).
    package var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / 100
    }
}

/// Bytes of every file directly in `directory` (a service's store).
package func directoryBytes(_ directory: URL) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.reduce(0) { sum, name in
        sum
            + ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size]
                as? Int) ?? 0)
    }
}

extension Duration {
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    package var milliseconds: Double { seconds * 1000 }
}

/// The p-th percentile (0...1) of sorted durations, in milliseconds (NaN when empty).
package func percentile(_ sorted: [Duration], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))].milliseconds
}

package func format(_ value: Double, _ digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
}
