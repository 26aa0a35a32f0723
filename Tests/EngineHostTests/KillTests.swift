import EngineHost
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
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents"
            || directory.lastPathComponent == "MacOS" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("glimpse-host-probe")
    }

    @Test func everyAcknowledgedCommandSurvivesKill9() async throws {
        let probe = Self.probe
        try #require(FileManager.default.isExecutableFile(atPath: probe.path), "build glimpse-host-probe first")
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("probe.sqlite").path

        let process = Process()
        process.executableURL = probe
        process.arguments = [path, "1000000"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()

        // Read acknowledgements until some have arrived, then kill -9 mid-stream.
        var text = ""
        while text.components(separatedBy: "\n").count < 200 {
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
        #expect(acknowledged.count >= 199)
        #expect(acknowledged == Array(1...Int64(acknowledged.count)))

        let journal = try Journal(path: path)
        let sequences = Set(try journal.entries().map(\.sequence))
        #expect(acknowledged.allSatisfy(sequences.contains))
        let host = try openCounterHost(journal, mode: .system)
        #expect(await host.read { $0.count } == sequences.count)
        try await host.close()
    }
}
