import Testing

@testable import GlimpseCLI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A member's log is kept across starts (a stack started again in the same directory, a
/// member the supervisor restarts): readiness reads only what its latest start wrote.
@Suite("glimpse up: a member's log across starts")
struct StackLogTests {
    let member = StackPlan.Member(
        name: "glimpse-gateway", executable: "/bin/true", arguments: [], port: 7700, role: "gateway", isService: false)

    @Test("only the lines after the latest start line count")
    func latestStart() {
        let first = StackSupervisor.startLine(member, at: Date(timeIntervalSince1970: 0))
        let second = StackSupervisor.startLine(member, at: Date(timeIntervalSince1970: 60))
        let log = "\(first)\nlistening on port 7700\nshutting down\n\(second)\nstarting\n"
        #expect(!StackSupervisor.latestStart(of: log).contains("listening on port"))
        #expect(StackSupervisor.latestStart(of: log + "listening on port 7700\n").contains("listening on port"))
        // A log from before start lines were written counts whole.
        #expect(StackSupervisor.latestStart(of: "listening on port 7700\n").contains("listening on port"))
    }

    @Test("the supervisor writes a start line into the log before each start of a member")
    func startLineBeforeEachStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "glimpse-log-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: "\(directory)/logs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let echo = StackPlan.Member(
            name: "demo-echo", executable: "/bin/sh", arguments: ["-c", "echo listening on port 1"], port: 1,
            role: "app", isService: false)
        for run in 1...2 {
            var supervisor = StackSupervisor(directory: directory, plan: [echo])
            try supervisor.startAll()
            let pid = try #require(supervisor.entries[0].pid)
            while Processes.exited(pid) == nil { try await Task.sleep(for: .milliseconds(5)) }
            let log = String(decoding: try Files.read(StackSupervisor.log(of: echo, in: directory)), as: UTF8.self)
            #expect(log.components(separatedBy: "glimpse: starting demo-echo (").count - 1 == run)
            #expect(log.components(separatedBy: "listening on port 1").count - 1 == run)
            #expect(StackSupervisor.latestStart(of: log).components(separatedBy: "listening").count - 1 == 1)
        }
    }
}
