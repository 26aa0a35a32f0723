#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Synchronization

/// One `glimpse fleet` run over one HTTP/2 connection to the gateway: each call names its
/// device (`glimpse-device`), or is an app's (its token names the device).
struct FleetRun: Sendable {
    let gateway: HostPort
    let plan: FleetPlan
    let concurrency: Int
    let progress: ProgressLine

    /// The events that are provider calls: a timeline answered, or a call that failed.
    static let providerCallKinds = ["reload_performed", "provider_failed"]

    func run(keep: Bool, pushPaths: String?) async throws -> FleetReport {
        var report = FleetReport(devices: plan.devices.count, steps: plan.steps, step: plan.step)
        try await GatewayConnection.with(gateway) { connection in
            let calls = FleetCalls(client: connection.client)
            let clock = ContinuousClock()
            // Manual clocks, or nothing is made.
            _ = try await calls.now(DeviceScope.defaultID)

            // Set up: every device made from the template.
            var started = clock.now
            let setup = Mutex(FleetSetup())
            do {
                try await forEachDevice { device in
                    let made = try await setUp(device, calls, setup)
                    let done = setup.withLock { state in
                        state.made[device] = made
                        return state.made.count
                    }
                    progress.update("fleet: set up \(done) of \(plan.devices.count) devices")
                }
            } catch {
                // What was made goes again, unless asked to keep it.
                if !keep {
                    for device in setup.withLock({ $0.created.sorted() }) { try? await calls.delete(device) }
                }
                throw error
            }
            report.setupSeconds = (clock.now - started).seconds
            let made = setup.withLock { $0.made }
            let tokens = made.values.flatMap(\.tokens)
            report.activities = tokens.count
            report.shards = made.values.reduce(into: [:]) { counts, device in
                if !device.shard.isEmpty { counts[device.shard, default: 0] += 1 }
            }
            if let pushPaths { try Self.writePushPaths(made, to: pushPaths) }

            // The day: each device's steps in order, `concurrency` devices at once.
            started = clock.now
            let day = Mutex(FleetDay())
            try await forEachDevice { device in
                for index in 1...plan.steps {
                    let before = clock.now
                    do {
                        _ = try await calls.advance(device, by: plan.step)
                        day.withLock { $0.advanced(clock.now - before) }
                    } catch let error as RPCError {
                        day.withLock { $0.failed("\(device): Clock.Advance: \(error.code): \(error.message)") }
                        return
                    } catch {
                        day.withLock { $0.failed("\(device): Clock.Advance: \(error)") }
                        return
                    }
                    guard plan.tapEverySteps > 0, index % plan.tapEverySteps == 0 else { continue }
                    for (placement, element) in made[device]?.taps ?? [] {
                        let tapped = clock.now
                        do {
                            try await calls.tap(device, placement: placement, element: element)
                            day.withLock { $0.tapped(clock.now - tapped) }
                        } catch let error as RPCError
                            where error.reason(as: GlimpseIntentV1.Refusal.self) == .noSuchElement
                        {
                            // The entry showing has no such element now (a film already
                            // marked watched): a phone's user would find nothing to tap. A
                            // placement or device gone is a failed tap.
                            day.withLock { $0.untappable += 1 }
                        } catch {
                            day.withLock { $0.tapFailed("\(device): tap \(element) on \(placement): \(error)") }
                        }
                    }
                }
                let steps = day.withLock { $0.advances.count }
                progress.update("fleet: \(steps) of \(plan.devices.count * plan.steps) steps")
            }
            report.daySeconds = (clock.now - started).seconds
            report.day = day.withLock { $0 }

            // What the providers saw, from the devices' event logs.
            let counted = Mutex((answered: 0, failed: 0))
            try await forEachDevice { device in
                let (answered, failed) = try await calls.providerCalls(device, after: made[device]?.start)
                counted.withLock { $0 = ($0.answered + answered, $0.failed + failed) }
            }
            (report.providerAnswered, report.providerFailed) = counted.withLock { $0 }

            if !keep {
                started = clock.now
                try await forEachDevice { device in try await calls.delete(device) }
                report.deleteSeconds = (clock.now - started).seconds
            }
            progress.finish()
        }
        return report
    }

    /// Runs `body` for every device, `concurrency` at once; the first error ends the run.
    func forEachDevice(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var waiting = plan.devices.makeIterator()
            for _ in 0..<concurrency {
                guard let device = waiting.next() else { break }
                group.addTask { try await body(device) }
            }
            while try await group.next() != nil {
                if let device = waiting.next() { group.addTask { try await body(device) } }
            }
        }
    }

    /// Makes `device` from the template: created (deleted first when an earlier run left
    /// it), its apps installed, their widgets placed and Live Activities started; noted in
    /// `setup` once created.
    func setUp(
        _ device: String, _ calls: FleetCalls, _ setup: borrowing Mutex<FleetSetup>
    ) async throws -> FleetSetup.Device {
        let shard: String
        do {
            shard = try await calls.create(device)
        } catch let error as RPCError where error.code == .alreadyExists {
            try await calls.delete(device)
            shard = try await calls.create(device)
        }
        setup.withLock { _ = $0.created.insert(device) }
        var made = FleetSetup.Device(start: try await calls.now(device), shard: shard)
        var withTokens = 0
        for app in plan.apps {
            let installed = try await calls.install(device, app.install)
            for (var place, tap) in zip(app.template.widgets, app.template.taps) {
                place.bundleId = installed.bundleId
                let placement = try await calls.place(device, place)
                if let tap { made.taps.append((placement, tap)) }
            }
            guard !app.template.activities.isEmpty, plan.activityCopies > 0 else { continue }
            try await calls.foreground(token: installed.appToken)
            for _ in 0..<plan.activityCopies {
                for template in app.template.activities {
                    var request = try DemoDevice.request(template, now: made.start)
                    request.bundleId = installed.bundleId
                    try await calls.requestActivity(token: installed.appToken, request)
                    if case .token(true)? = request.pushType { withTokens += 1 }
                }
            }
        }
        // A push token comes a moment after its request (ActivityKit's pushTokenUpdates), and
        // reaches the gateway's view of the device after that: waited for, a while.
        made.tokens = try await calls.pushTokens(device)
        for _ in 0..<200 where made.tokens.count < withTokens {
            try await Task.sleep(for: .milliseconds(25))
            made.tokens = try await calls.pushTokens(device)
        }
        return made
    }

    /// Each Live Activity's `/3/device/<token>`, one a line, to `path`; on a sharded gateway
    /// also each shard's to `path.<shard>` (a push goes to the APNs endpoint of the device's
    /// shard).
    static func writePushPaths(_ made: [String: FleetSetup.Device], to path: String) throws {
        func write(_ devices: some Sequence<FleetSetup.Device>, _ path: String) throws {
            let lines = devices.flatMap(\.tokens).sorted().map { "/3/device/\($0)\n" }.joined()
            do { try Files.write(Array(lines.utf8), to: path) } catch {
                throw CLIFailure.local("cannot write \(error)")
            }
        }
        try write(made.values, path)
        for (shard, devices) in Dictionary(grouping: made.values, by: \.shard) where !shard.isEmpty {
            try write(devices, "\(path).\(shard)")
        }
    }
}

/// The devices set up so far.
struct FleetSetup: Sendable {
    struct Device: Sendable {
        /// The device instant its day starts at.
        var start: Date
        /// The widgets it taps: placement and element.
        var taps: [(UInt64, String)] = []
        /// The shard that keeps it (empty: the gateway has none).
        var shard = ""
        /// Its Live Activities' push tokens.
        var tokens: [String] = []
    }

    var made: [String: Device] = [:]
    /// The devices created so far (a failed set-up deletes them).
    var created: Set<String> = []
}

/// What a fleet's day measured.
struct FleetDay: Sendable {
    var advances: [Duration] = []
    var taps: [Duration] = []
    var failedAdvances = 0
    var failedTaps = 0
    /// Taps that found no such element in the entry showing then.
    var untappable = 0
    var firstFailure: String?
    var firstTapFailure: String?

    mutating func advanced(_ took: Duration) { advances.append(took) }
    mutating func tapped(_ took: Duration) { taps.append(took) }
    mutating func failed(_ why: String) {
        failedAdvances += 1
        if firstFailure == nil { firstFailure = why }
    }
    mutating func tapFailed(_ why: String) {
        failedTaps += 1
        if firstTapFailure == nil { firstTapFailure = why }
    }
}
