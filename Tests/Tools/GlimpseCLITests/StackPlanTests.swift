import Foundation
import Testing

@testable import GlimpseCLI

/// What `glimpse up` starts: on `--manual` the clocks stay frozen unless `--follow`, so a
/// script's steps give the same event log every run.
@Suite("glimpse up: the stack's plan")
struct StackPlanTests {
    static func gateway(_ options: StackPlan.Options) throws -> [String] {
        try #require(StackPlan(options).members.first { $0.name == "glimpse-gateway" }).arguments
    }

    @Test("--manual: every process on a manual clock from the instant, frozen; --follow: the gateway follows real time")
    func manualClocks() throws {
        var options = StackPlan.Options()
        options.manualStart = "2026-01-01T09:00:00Z"
        for member in StackPlan(options).members where member.isService {
            #expect(
                member.arguments.contains("--clock") && member.arguments.contains("2026-01-01T09:00:00Z"),
                "\(member.name)")
        }
        #expect(!(try Self.gateway(options)).contains("--follow-real-time"))
        options.followRealTime = true
        let following = try Self.gateway(options)
        let flag = try #require(following.firstIndex(of: "--follow-real-time"))
        #expect(following[flag + 1] == "true")
    }

    @Test("a system-clock stack never follows: there is nothing to follow")
    func systemClock() throws {
        var options = StackPlan.Options()
        options.followRealTime = true
        #expect(!(try Self.gateway(options)).contains("--follow-real-time"))
        #expect(!(try Self.gateway(options)).contains("--clock"))
    }

    @Test(
        "--manual seeds glimpse-activity's ids and tokens with the instant (or --seed); a system-clock stack leaves them random"
    )
    func seed() throws {
        func activity(_ options: StackPlan.Options) throws -> [String] {
            try #require(StackPlan(options).members.first { $0.name == "glimpse-activity" }).arguments
        }
        var options = StackPlan.Options()
        #expect(!(try activity(options)).contains("--seed"))
        options.manualStart = "2026-01-01T09:00:00Z"
        var arguments = try activity(options)
        #expect(arguments[try #require(arguments.firstIndex(of: "--seed")) + 1] == "2026-01-01T09:00:00Z")
        options.seed = "run-7"
        arguments = try activity(options)
        #expect(arguments[try #require(arguments.firstIndex(of: "--seed")) + 1] == "run-7")
    }

    @Test(
        "--store: the four services get it in their environment (sqlite unless given), never on a command line"
    )
    func store() throws {
        let url = "postgres://glimpse:secret@127.0.0.1:5432/glimpse"
        for given in [nil, url] {
            var options = StackPlan.Options()
            options.store = given
            for member in StackPlan(options).members {
                let journaled = ["glimpse-timeline", "glimpse-intent", "glimpse-activity", "glimpse-asset"]
                    .contains(member.name)
                #expect(member.environment["GLIMPSE_STORE"] == (journaled ? given ?? "sqlite" : nil), "\(member.name)")
                #expect(!member.arguments.contains { $0.contains("secret") }, "\(member.name)")
            }
        }
    }

    @Test("a stack's record keeps each member's environment, so a detached supervisor starts it again the same")
    func recordKeepsTheEnvironment() throws {
        var options = StackPlan.Options()
        options.store = "postgres://glimpse:secret@127.0.0.1:5432/glimpse"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stack-record-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plan = StackPlan(options).members
        try StackRecord(processes: [], started: "now", supervisor: 0, plan: plan).write(to: directory)
        let mode = try #require(
            try FileManager.default.attributesOfItem(atPath: StackRecord.path(in: directory))[.posixPermissions] as? Int
        )
        #expect(mode == 0o600)  // the URL's password is in it
        let read = try #require(StackRecord.read(from: directory))
        #expect(read.plan == plan)
        #expect(read.plan.first { $0.name == "glimpse-intent" }?.environment["GLIMPSE_STORE"] == options.store)
    }

    @Test(
        "--shards 2: shard b's four services on ports 20 above a's, in folders of their own; the gateway reads the map")
    func shards() throws {
        var options = StackPlan.Options()
        options.directory = "/tmp/stack"
        options.shards = 2
        let plan = StackPlan(options)
        let services = plan.members.filter { $0.name != "glimpse-gateway" }.map(\.name)
        #expect(
            services == [
                "glimpse-timeline", "glimpse-intent", "glimpse-activity", "glimpse-asset", "glimpse-timeline-b",
                "glimpse-intent-b", "glimpse-activity-b", "glimpse-asset-b",
            ])
        #expect(Set(plan.members.map(\.port)).count == plan.members.count)
        let b = try #require(plan.members.first { $0.name == "glimpse-intent-b" })
        #expect(b.port == 7722)
        #expect(b.arguments.contains("/tmp/stack/shard-b/intent"))
        #expect(b.arguments.contains("127.0.0.1:7721"))
        let activity = try #require(plan.members.first { $0.name == "glimpse-activity-b" }).arguments
        #expect(activity.contains("7463") && activity.contains("7464"))
        // `glimpse up` checks every one of these before it starts anything.
        #expect(plan.ports.contains(7463) && plan.ports.contains(7464) && plan.ports.contains(7724))
        #expect(Set(plan.ports).count == plan.ports.count)
        #expect(plan.shards.map(\.name) == ["a", "b"])
        let gateway = try Self.gateway(options)
        #expect(gateway[try #require(gateway.firstIndex(of: "--shards")) + 1] == "/tmp/stack/shards.json")
        #expect(!gateway.contains("--timeline-address"))
        let map = try #require(plan.shardMap)
        #expect(map.json.contains(#""name":"b""#) || map.json.contains(#""name": "b""#))
        #expect(map.json.contains("127.0.0.1:7724"))
        options.shards = 1
        #expect(StackPlan(options).shardMap == nil)
    }
}
