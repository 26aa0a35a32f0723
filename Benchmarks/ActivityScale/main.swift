// Activity engine at scale: 100,000 concurrent activities, 10,000 pushes a second for a
// simulated minute on a virtual clock. Prints the engine's wall-clock push throughput
// and resident memory per activity. Run through Benchmarks/activity-scale.sh (release).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine
import GlimpseVocabulary
import GlimpseJSON

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
func argument(_ name: String, _ fallback: Int) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else {
        return fallback
    }
    return v
}
let activityCount = argument("--activities", 100_000)
let pushesPerSecond = argument("--pushes-per-second", 10_000)
let seconds = argument("--seconds", 60)
let appCount = 1_000

/// Resident set size in bytes, from /proc/self/status (VmRSS, in kB).
func residentBytes() -> Int {
    guard let f = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, f) != nil {
        let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmRSS:") {
            return (Int(text.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
        }
    }
    return 0
}

let rssBefore = residentBytes()
let clock = VirtualClock()
var engine = ActivityManager(
    clock: clock,
    config: ActivitySettings(targetMaximum: activityCount / appCount + 1),
    identifiers: SequentialIdentifiers())
let apps = (0..<appCount).map { AppID("com.bench.app\($0)") }
for app in apps { engine.install(app, InstalledApp(attributeTypes: ["DeliveryAttributes"])) }
let attributes = ActivityAttributesPayload(
    typeName: "DeliveryAttributes",
    value: try! JSONObjectBytes(validating: Array(#"{"orderNumber":123456,"restaurant":"Gusteau's"}"#.utf8)))

var ids: [ActivityID] = []
ids.reserveCapacity(activityCount)
for n in 0..<activityCount {
    let state = try! JSONObjectBytes(validating: Array(#"{"driverName":"Tim","etaMinutes":15,"step":\#(n % 4)}"#.utf8))
    // Stale dates spread over the minute, so the deadline heap has real work: most are
    // pushed later by an update first, the rest turn stale on time.
    let content = ActivityContent(
        state: state, staleDate: clock.now + 30 + Double(n % 60), relevanceScore: Double(n % 100))
    ids.append(
        try! engine.request(app: apps[n % appCount], attributes: attributes, content: content, pushType: .token).answer
            .get())
}
try! clock.advance(by: 0)
_ = engine.fireDue()  // issue the update tokens
// The push server's book: a token per activity (activity n belongs to app n % appCount).
let tokens: [PushToken] = ids.map { engine.activity($0)!.pushToken! }
let headers = apps.map { LiveActivityPushHeaders(app: $0, priority: 10) }
ids = []
let rssLoaded = residentBytes()

/// A fixed-seed LCG, so every run pushes to the same activities.
struct LCG {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next(below bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
var rng = LCG()

func fixed3(_ x: Double) -> String {
    let thousandths = Int((x * 1000).rounded())
    let frac = String(thousandths % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
}

var applied = 0, throttled = 0, dropped = 0, other = 0
var pushNanos: Int64 = 0
var tickNanos: Int64 = 0
let wall = ContinuousClock()
var bodies: [[UInt8]] = []
var picks: [Int] = []
for second in 0..<seconds {
    // The push server's side (not timed): this second's bodies and tokens.
    let now = clock.now.timeIntervalSince1970
    bodies.removeAll(keepingCapacity: true)
    picks.removeAll(keepingCapacity: true)
    for k in 0..<pushesPerSecond {
        let stamp = now + Double(k) / Double(pushesPerSecond)
        let alert = k % 100 == 0 ? #","alert":{"title":"Update","body":"Your order moved"}"# : ""
        bodies.append(
            Array(
                """
                {"aps":{"timestamp":\(stamp),"event":"update","content-state":{"driverName":"John","etaMinutes":\(60 - second),"step":\(k % 4)},"stale-date":\(now + 900),"relevance-score":\(k % 100)\(alert)}}
                """.utf8))
        picks.append(rng.next(below: activityCount))
    }
    let pushStart = wall.now
    for k in 0..<pushesPerSecond {
        let n = picks[k]
        switch engine.receivePush(headers: headers[n % appCount], deviceToken: tokens[n], body: bodies[k]).answer {
        case .applied: applied += 1
        case .throttled: throttled += 1
        case .droppedAsStale: dropped += 1
        default: other += 1
        }
    }
    let pushTime = wall.now - pushStart
    pushNanos += pushTime.components.seconds * 1_000_000_000 + pushTime.components.attoseconds / 1_000_000_000
    let tickStart = wall.now
    try! clock.advance(by: 1)
    _ = engine.fireDue()
    let tickTime = wall.now - tickStart
    tickNanos += tickTime.components.seconds * 1_000_000_000 + tickTime.components.attoseconds / 1_000_000_000
}
let rssAfter = residentBytes()

let total = seconds * pushesPerSecond
let pushSeconds = Double(pushNanos) / 1e9
print("activities:                 \(activityCount) (\(engine.ongoingCount) ongoing at the end)")
print("pushes sent:                \(total) over \(seconds) simulated seconds")
print("outcomes:                   applied \(applied), throttled \(throttled), dropped \(dropped), other \(other)")
print("engine time for pushes:     \(fixed3(pushSeconds)) s wall")
print("pushes applied per second:  \(Int(Double(applied) / pushSeconds))")
print("pushes handled per second:  \(Int(Double(total) / pushSeconds)) (parse + rules + apply)")
let stale = engine.allActivities.filter { $0.state == .stale }.count
print(
    "deadline passes:            \(fixed3(Double(tickNanos) / 1e9)) s wall for \(seconds) ticks; \(stale) activities stale at the end"
)
print("bytes per activity (RSS):   \(rssAfter / activityCount) (VmRSS \(rssAfter / 1_048_576) MiB / \(activityCount))")
print(
    "bytes per activity (delta): \((rssLoaded - rssBefore) / activityCount) after setup, \((rssAfter - rssBefore) / activityCount) after the run"
)
