package import Foundation

/// A Glimpse executable started by a benchmark: it prints `listening on port N` first.
package struct ServiceProcess {
    package let process: Process
    package let port: Int
    /// With `--metrics-port`: the port of its `GET /metrics` (`metrics on port M`, its second line).
    package var metricsPort: Int?

    /// Starts `path` with `arguments`; nil (after printing why) when it does not report a port.
    package static func start(_ path: String, _ arguments: [String]) throws -> ServiceProcess? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let wanted = arguments.contains("--metrics-port") ? 2 : 1
        var text = ""
        while text.filter({ $0 == "\n" }).count < wanted {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let lines = text.split(separator: "\n")
        guard let port = Int(lines.first?.split(separator: " ").last ?? "") else {
            print("\(path) did not start: \(text)")
            process.terminate()
            return nil
        }
        var started = ServiceProcess(process: process, port: port)
        if let line = lines.first(where: { $0.hasPrefix("metrics on port") }) {
            started.metricsPort = Int(line.split(separator: " ").last ?? "")
        }
        return started
    }

    /// The value of `metric` (a sample without labels) at its `/metrics`, if it serves one.
    package func metric(_ metric: String) -> Double? {
        guard let metricsPort, let connection = try? HTTPConnection(port: metricsPort) else { return nil }
        defer { connection.close() }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard let response = try? connection.roundTrip(request), let head = response.range(of: "\r\n\r\n") else {
            return nil
        }
        let text = response[head.upperBound...]
        let line = text.split(separator: "\n").first { $0.hasPrefix(metric + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
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

/// One blocking keep-alive HTTP/1.1 connection (responses with Content-Length).
package final class HTTPConnection {
    private let fd: Int32

    package init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends `request`, reads one response; nil when the server closed the connection.
    package func roundTrip(_ request: [UInt8]) throws -> String? {
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            received += buffer[0..<n]
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let length =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if received.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { return text }
        }
    }

    package func close() { _ = Glibc.close(fd) }
}
