import GlimpseJSON

/// What `glimpse fleet` measured, as text or JSON.
struct FleetReport: Sendable {
    var devices: Int
    var steps: Int
    var step: Double
    var activities = 0
    /// Devices per shard, on a sharded gateway.
    var shards: [String: Int] = [:]
    var setupSeconds = 0.0
    var daySeconds = 0.0
    var deleteSeconds: Double?
    var day = FleetDay()
    var providerAnswered = 0
    var providerFailed = 0

    var failedAdvances: Int { day.failedAdvances }
    var firstFailure: String? { day.firstFailure }

    /// The `fraction` quantile of `durations`, in milliseconds (0 for none).
    static func quantile(_ durations: [Duration], _ fraction: Double) -> Double {
        guard !durations.isEmpty else { return 0 }
        let sorted = durations.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return sorted[max(0, index)].seconds * 1000
    }

    private static func rate(_ count: Int, _ seconds: Double) -> Double { seconds > 0 ? Double(count) / seconds : 0 }

    var text: String {
        let hours = Numbers.fixed(Double(steps) * step / 3600)
        var lines = [
            "fleet: \(devices) devices, \(activities) Live Activities, set up in \(Numbers.fixed(setupSeconds)) s",
            "day: \(hours) h in \(steps) steps of \(Numbers.fixed(step / 60)) min per device, \(Numbers.fixed(daySeconds)) s",
            "  Clock.Advance: \(day.advances.count) calls, \(Numbers.fixed(Self.rate(day.advances.count, daySeconds))) calls/s, "
                + "p50 \(Numbers.fixed(Self.quantile(day.advances, 0.5))) ms, p99 \(Numbers.fixed(Self.quantile(day.advances, 0.99))) ms"
                + (day.failedAdvances > 0 ? ", \(day.failedAdvances) failed" : ""),
            "  taps: \(day.taps.count) performed, \(day.untappable) found nothing to tap, p50 \(Numbers.fixed(Self.quantile(day.taps, 0.5))) ms, "
                + "p99 \(Numbers.fixed(Self.quantile(day.taps, 0.99))) ms"
                + (day.failedTaps > 0 ? ", \(day.failedTaps) failed (first: \(day.firstTapFailure ?? "?"))" : ""),
            "  provider calls: \(providerAnswered) answered, \(providerFailed) failed, "
                + "\(Numbers.fixed(Self.rate(providerAnswered + providerFailed, daySeconds))) calls/s",
        ]
        if !shards.isEmpty {
            lines.insert(
                "shards: " + shards.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                at: 1)
        }
        if let deleteSeconds { lines.append("deleted in \(Numbers.fixed(deleteSeconds)) s") }
        return lines.joined(separator: "\n")
    }

    var json: JSONValue {
        var members = [
            JSONMember("devices", .number(Double(devices))),
            JSONMember("activities", .number(Double(activities))),
            JSONMember("setupSeconds", .number(setupSeconds)),
            JSONMember("steps", .number(Double(steps))),
            JSONMember("stepSeconds", .number(step)),
            JSONMember("daySeconds", .number(daySeconds)),
            JSONMember("advances", .number(Double(day.advances.count))),
            JSONMember("advancesPerSecond", .number(Self.rate(day.advances.count, daySeconds))),
            JSONMember("advanceP50Ms", .number(Self.quantile(day.advances, 0.5))),
            JSONMember("advanceP99Ms", .number(Self.quantile(day.advances, 0.99))),
            JSONMember("failedAdvances", .number(Double(day.failedAdvances))),
            JSONMember("taps", .number(Double(day.taps.count))),
            JSONMember("untappable", .number(Double(day.untappable))),
            JSONMember("tapP99Ms", .number(Self.quantile(day.taps, 0.99))),
            JSONMember("failedTaps", .number(Double(day.failedTaps))),
            JSONMember("providerAnswered", .number(Double(providerAnswered))),
            JSONMember("providerFailed", .number(Double(providerFailed))),
            JSONMember(
                "providerCallsPerSecond", .number(Self.rate(providerAnswered + providerFailed, daySeconds))),
        ]
        if !shards.isEmpty {
            members.append(
                JSONMember(
                    "shards",
                    .object(shards.sorted { $0.key < $1.key }.map { JSONMember($0.key, .number(Double($0.value))) })))
        }
        if let deleteSeconds { members.append(JSONMember("deleteSeconds", .number(deleteSeconds))) }
        if let firstFailure { members.append(JSONMember("firstFailure", .string(firstFailure))) }
        return .object(members)
    }
}
