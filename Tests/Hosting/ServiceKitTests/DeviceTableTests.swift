import Foundation
import RPCCore
import Synchronization
import Testing

@testable import ServiceKit

@Suite struct DeviceTableTests {
    final class Counts: Sendable {
        let opened = Mutex<[String: Int]>([:])
        let closed = Mutex<[String]>([])
    }

    func table(
        root: URL?, counts: Counts, failing: Set<String> = [], limit: Int = 10, openFiles: UInt64? = nil
    ) -> DeviceTable {
        DeviceTable(root: root, limit: limit, openFiles: openFiles) { device in
            if failing.contains(device) { throw RPCError(code: .notFound, message: "no \(device)") }
            counts.opened.withLock { $0[device, default: 0] += 1 }
            if let root {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(device), withIntermediateDirectories: true)
            }
            return .init(services: []) { counts.closed.withLock { $0.append(device) } }
        }
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("device-table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func opensADeviceOnceHoweverManyCallsArriveAtOnce() async throws {
        let counts = Counts()
        let table = table(root: nil, counts: counts)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { _ = try await table.router(for: "ci-1") } }
            try await group.waitForAll()
        }
        #expect(counts.opened.withLock { $0 } == ["ci-1": 1])
        #expect(await table.list() == ["ci-1"])
    }

    @Test func aFailedOpenAnswersItsErrorAndIsTriedAgain() async {
        let counts = Counts()
        let table = table(root: nil, counts: counts, failing: ["ghost"])
        for _ in 0..<2 {
            do {
                _ = try await table.router(for: "ghost")
                Issue.record("a failing open served")
            } catch {
                #expect(error.code == .notFound && error.message == "no ghost")
            }
        }
        #expect(await table.list() == [])
    }

    @Test func deleteClosesTheServerAndRemovesItsFolderAndIsIdempotent() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let counts = Counts()
        let table = table(root: root, counts: counts)
        _ = try await table.router(for: "ci-1")
        _ = try await table.router(for: "ci-2")
        #expect(await table.list() == ["ci-1", "ci-2"])
        #expect(try await table.delete("ci-1"))
        #expect(counts.closed.withLock { $0 } == ["ci-1"])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("ci-1").path))
        #expect(try await table.delete("ci-1") == false)
        #expect(await table.list() == ["ci-2"])
        // Closing keeps the data: the next call opens it again.
        await table.close("ci-2")
        #expect(await table.list() == ["ci-2"])
        _ = try await table.router(for: "ci-2")
        #expect(counts.opened.withLock { $0["ci-2"] } == 2)
        await table.closeAll()
        #expect(counts.closed.withLock { $0 } == ["ci-1", "ci-2", "ci-2"])
    }

    @Test func atTheLimitANewDeviceIsRefusedAndAnOpenOneServed() async throws {
        let counts = Counts()
        let table = table(root: nil, counts: counts, limit: 2)
        _ = try await table.router(for: "a")
        _ = try await table.router(for: "b")
        do {
            _ = try await table.router(for: "c")
            Issue.record("a third device opened past the limit of 2")
        } catch {
            #expect(error.code == .resourceExhausted && error.message.contains("at most 2 devices"))
        }
        _ = try await table.router(for: "a")
        try await table.delete("a")
        _ = try await table.router(for: "c")
        #expect(counts.opened.withLock { $0 } == ["a": 1, "b": 1, "c": 1])
    }

    @Test func pastWhatTheOpenFilesLimitHoldsADeviceIsStillServed() async throws {
        // 16 files: a quarter kept for everything else, 3 per store: 4 stores open at once.
        #expect(DeviceTable.devices(holding: 16) == 4)
        #expect(DeviceTable.devices(holding: 20_000) == (20_000 - 1024) / 3)
        #expect(DeviceTable.devices(holding: 0) == 0)
        let counts = Counts()
        let table = table(root: nil, counts: counts, limit: 10, openFiles: 16)
        #expect(table.fileCapacity == 4)
        // Past them the stores take turns (`OpenDatabases`): the devices are all served.
        for device in ["a", "b", "c", "d", "e", "f"] { _ = try await table.router(for: device) }
        #expect(counts.opened.withLock { $0 }.count == 6)
    }

    @Test func theOpenFilesLimitIsRaisedToHoldWhatIsAskedAndNeverLowered() throws {
        let before = try #require(OpenFiles.current)
        // Asking for less than is in force changes nothing.
        #expect(OpenFiles.raise(toHold: 1) == before)
        #expect(OpenFiles.current == before)
        // Asking for more gives at least what was in force, and what it says is in force.
        let raised = try #require(OpenFiles.raise(toHold: before + 64))
        #expect(raised >= before)
        #expect(OpenFiles.current == raised)
        if let most = OpenFiles.systemMost, before + 64 <= most, Self.mayRaiseHardLimits() {
            // With CAP_SYS_RESOURCE (root outside a container) the hard limit is raised too.
            #expect(raised >= before + 64)
        }
    }

    /// Whether this process holds CAP_SYS_RESOURCE (bit 24 of CapEff in /proc/self/status).
    static func mayRaiseHardLimits() -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let bits = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return bits & (1 << 24) != 0
    }

    @Test func anAppsCallMakesNoDeviceOnlyReachesOneThatExists() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let counts = Counts()
        let table = table(root: root, counts: counts)
        do {
            _ = try await table.router(for: "made-up", creating: false)
            Issue.record("an app's call made a device")
        } catch {
            #expect(error.code == .unauthenticated)
        }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("made-up").path))
        #expect(counts.opened.withLock { $0 }.isEmpty)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("kept"), withIntermediateDirectories: true)
        _ = try await table.router(for: "kept", creating: false)
        #expect(counts.opened.withLock { $0 } == ["kept": 1])
    }

    @Test func aDeviceBeingDeletedIsNotOpenedAgainMeanwhile() async throws {
        let (closing, closingStarted) = AsyncStream<Void>.makeStream()
        let (releases, releaser) = AsyncStream<Void>.makeStream()
        let table = DeviceTable(root: nil) { _ in
            .init(services: []) {
                closingStarted.yield()
                for await _ in releases { break }
            }
        }
        _ = try await table.router(for: "ci-1")
        let deletion = Task { try await table.delete("ci-1") }
        for await _ in closing { break }  // delete is now waiting on the close
        do {
            _ = try await table.router(for: "ci-1")
            Issue.record("a device being deleted was opened again")
        } catch {
            #expect(error.code == .aborted)
        }
        releaser.yield()
        #expect(try await deletion.value)
        _ = try await table.router(for: "ci-1")  // afterwards it may be made anew
    }

    @Test func anAppTokenNamesItsDevice() {
        func device(_ authorization: String) -> String? {
            DeviceDispatch.device(ofToken: Metadata(["authorization": authorization]))
        }
        #expect(device("Bearer ci-1.00ff") == "ci-1")
        #expect(device("Bearer 00ff") == nil)  // the default device's
        #expect(device("Bearer default.00ff") == nil)
        #expect(device("Bearer Bad Id.00ff") == nil)
        #expect(device("Device k") == nil)
        #expect(DeviceDispatch.device(ofToken: Metadata()) == nil)
    }
}
