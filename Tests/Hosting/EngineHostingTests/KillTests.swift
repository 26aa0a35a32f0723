import EngineHosting
import EngineHostToys
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct KillTests {
    /// The probe is built next to the test bundle (`swift build --build-tests`).
    static var probe: URL {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents"
            || directory.lastPathComponent == "MacOS"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("glimpse-host-probe")
    }

    @Test func everyAcknowledgedCommandSurvivesKill9() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("probe.sqlite").path
        let acknowledged = try Self.runProbeAndKill(path: path, arguments: [])

        let journal = try Journal(path: path)
        let sequences = Set(try journal.entries().map(\.sequence))
        #expect(acknowledged.allSatisfy(sequences.contains))
        let host = try openCounterHost(journal, mode: .system)
        #expect(await host.read { $0.count } == sequences.count)
        try await host.close()
    }

    /// Snapshots every 7 inputs: kills land before, inside and after snapshot transactions.
    @Test(arguments: 1...3) func everyAcknowledgedCommandSurvivesKill9WhileSnapshotting(round: Int) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("probe.sqlite").path
        let acknowledged = try Self.runProbeAndKill(path: path, arguments: ["7"], after: 150 * round)

        let journal = try Journal(path: path)
        let snapshot = try #require(try journal.latestSnapshot())
        // Entries up to the snapshot are gone; the ones after it follow on without a gap.
        let sequences = try journal.entries().map(\.sequence)
        #expect(sequences == Array((snapshot.sequence + 1)..<((snapshot.sequence + 1) + Int64(sequences.count))))
        let host = try openCounterHost(journal, mode: .system, snapshots: SnapshotPolicy(every: 7))
        let last = await host.lastSequence
        #expect(acknowledged.allSatisfy { $0 <= last })
        // Each input added one: the count is every input, acknowledged or not yet.
        #expect(await host.read { $0.count } == Int(last))
        try await host.close()
    }

    /// Starts the probe, reads acknowledgements until `after` have arrived, kills it with
    /// SIGKILL, and returns every acknowledgement it gave.
    static func runProbeAndKill(path: String, arguments: [String], after: Int = 200) throws -> [Int64] {
        let probe = Self.probe
        try #require(FileManager.default.isExecutableFile(atPath: probe.path), "build glimpse-host-probe first")
        let process = Process()
        process.executableURL = probe
        process.arguments = [path, "1000000"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()

        // Read acknowledgements until some have arrived, then kill -9 mid-stream.
        var text = ""
        while text.components(separatedBy: "\n").count < after {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        // Every complete line was an acknowledgement given before the kill.
        let acknowledged = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .compactMap { line in line.hasPrefix("ack ") ? Int64(line.dropFirst(4)) : nil }
        #expect(acknowledged.count >= after - 1)
        #expect(acknowledged == Array(1...Int64(acknowledged.count)))
        return acknowledged
    }
}
