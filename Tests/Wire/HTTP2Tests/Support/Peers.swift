import Foundation

/// Real clients as processes: curl, nghttp, and Tests/Peers/h2_peer.py (Python's `h2`
/// and `httpx`). None is skipped when missing: scripts/bootstrap.sh installs them, and a
/// peer test that cannot run fails and says why.
enum Peers {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `arguments` (through /usr/bin/env) to its end without blocking a thread of the
    /// cooperative pool (the server's handlers run there too); output goes through files,
    /// so a large one never stalls the child.
    static func run(_ arguments: [String]) async throws -> Output {
        let directory = temporaryDirectory("peer")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Output(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    // MARK: Python

    static var h2PeerScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Peers/h2_peer.py").standardized.path
    }

    /// Runs a scenario of h2_peer.py and returns the JSON object it printed.
    static func h2Peer(_ scenario: String, port: Int, _ arguments: [String] = []) async throws -> [String: Any] {
        let output = try await run(["python3", h2PeerScript, scenario, "--port", String(port)] + arguments)
        guard output.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        else {
            throw Failure(
                description: "h2_peer.py \(scenario) failed (\(output.status)): \(output.stderr)\(output.stdout)")
        }
        return object
    }

    // MARK: curl

    struct CurlResponse {
        var exitCode: Int32
        var status: Int
        /// As curl reports it: `2` for HTTP/2.
        var httpVersion: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        var stderr: String

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// curl with `arguments`; the response's status, headers and body are read from files.
    static func curl(_ arguments: [String]) async throws -> CurlResponse {
        let directory = temporaryDirectory("curl")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headers = directory.appendingPathComponent("headers"), body = directory.appendingPathComponent("body")
        let output = try await run(
            [
                "curl", "-sS", "--max-time", "30", "-D", headers.path, "-o", body.path, "-w",
                "%{http_code} %{http_version}",
            ]
                + arguments)
        let written = output.stdout.split(separator: " ")
        let headerLines = ((try? String(contentsOf: headers, encoding: .utf8)) ?? "")
            .split(separator: "\r\n").dropFirst()  // the status line
        return CurlResponse(
            exitCode: output.status, status: written.first.flatMap { Int($0) } ?? 0,
            httpVersion: written.count > 1 ? String(written[1]) : "",
            headers: headerLines.compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            },
            body: Array((try? Data(contentsOf: body)) ?? Data()), stderr: output.stderr)
    }
}
