import GlimpseJSON

/// The processes of a local stack: the five Glimpse executables on their default ports (or
/// all moved by one offset) and the seed demo apps, each with its data under the stack's
/// directory.
struct StackPlan: Sendable {
    struct Member: Sendable, Hashable {
        var name: String  // "glimpse-timeline", "demo-pizza"
        var executable: String  // absolute path
        var arguments: [String]
        var port: Int
        var role: String
        /// Services stop after the gateway and the apps, so nothing reports them gone.
        var isService: Bool
        /// Set in the process's environment, over what the stack inherits (a store's URL
        /// goes here, not on a command line every local user can read).
        var environment: [String: String] = [:]
    }

    struct Options: Sendable {
        var directory = "./.glimpse"
        var binaries = "."
        var manualStart: String?  // --clock manual from this instant
        /// With `manualStart`: the gateway moves the clocks with real time from it; else they
        /// stay frozen until told (`glimpse clock advance`, `glimpse clock follow`).
        var followRealTime = false
        /// glimpse-activity's seed for activity ids and push tokens (with `manualStart`, the
        /// instant unless given: a scripted run gets the same ids every time).
        var seed: String?
        var device: String?
        var demoApps: [DemoApp] = []
        var apnsKey: (team: String, keyID: String, path: String)?
        /// Added to every port: the services', the demo apps' and the APNs endpoint's.
        var portOffset = 0
        /// Where the four services keep their journals: nil for their SQLite files under the
        /// directory, or a postgres:// URL (`GLIMPSE_STORE`; glimpse-asset's blob files stay
        /// under the directory).
        var store: String?
        /// `--max-devices` of every process (nil: their default).
        var maxDevices: Int?
        /// Sets of the four services, the gateway's devices spread over them (`--shards`);
        /// 1: no shard map.
        var shards = 1
    }

    struct DemoApp: Sendable, Hashable {
        var name: String
        var port: Int
    }

    /// One shard's ports: its four services' and its APNs endpoint's.
    struct ShardPorts: Sendable, Hashable {
        var name: String
        var timeline: Int, intent: Int, activity: Int, asset: Int
        var apnsTLS: Int, apnsH2C: Int

        var all: [Int] { [timeline, intent, activity, asset, apnsTLS, apnsH2C] }
    }

    static let gatewayPort = 7700
    static let apnsTLSPort = 7443
    static let apnsH2CPort = 7444
    /// The largest offset that keeps every default port (the apps' up to 7714) in range.
    static let largestPortOffset = 65535 - 7714
    /// The most shards a local stack runs, and how far apart their ports are: shard b's
    /// services on 7721-7724 and its APNs endpoint on 7463/7464, shard c's 20 further.
    static let largestShardCount = 8
    static let shardPortStep = 20

    /// The `index`th shard's ports (named a, b, c…), every port moved by `offset`.
    static func shardPorts(_ index: Int, offset: Int) -> ShardPorts {
        let shift = offset + index * shardPortStep
        return ShardPorts(
            name: String(UnicodeScalar(UInt8(97 + index))), timeline: 7701 + shift, intent: 7702 + shift,
            activity: 7703 + shift, asset: 7704 + shift, apnsTLS: apnsTLSPort + shift, apnsH2C: apnsH2CPort + shift)
    }

    var members: [Member]
    let gatewayPort: Int
    /// Sets of the four services (shard a's the unsharded stack's ports, b's 20 above…).
    let shards: [ShardPorts]
    /// Shard a's APNs endpoint: the unsharded stack's.
    var apnsTLSPort: Int { shards[0].apnsTLS }
    var apnsH2CPort: Int { shards[0].apnsH2C }
    /// Every port the stack listens on.
    var ports: [Int] { [gatewayPort] + shards.flatMap(\.all) + members.filter { !$0.isService }.map(\.port) }
    /// The gateway's `--shards` file, with its path: nil for one shard.
    let shardMap: (path: String, json: String)?

    /// The address on loopback of one of the plan's ports.
    static func loopback(_ port: Int) -> String { "127.0.0.1:\(port)" }

    init(_ options: Options) {
        let dir = options.directory
        let offset = options.portOffset
        gatewayPort = Self.gatewayPort + offset
        shards = (0..<max(1, options.shards)).map { Self.shardPorts($0, offset: offset) }
        var clock: [String] = []
        if let start = options.manualStart { clock = ["--clock", "manual", "--start-time", start] }
        let device = options.device.map { ["--device", $0] } ?? []
        let devices = options.maxDevices.map { ["--max-devices", "\($0)"] } ?? []
        // The journals' store is always given, so a GLIMPSE_STORE left in the environment
        // (from a deployment's setup, say) does not move a local stack's data elsewhere.
        let journaled: Set = ["timeline", "intent", "activity", "asset"]
        members = []
        var map: [JSONValue] = []
        // Each shard a set of the four services wired to one another; the first keeps the
        // names, ports and folders of an unsharded stack.
        for (index, ports) in shards.enumerated() {
            let name = ports.name
            let suffix = index == 0 ? "" : "-\(name)"
            let folder = index == 0 ? dir : "\(dir)/shard-\(name)"
            let timeline = Self.loopback(ports.timeline), intent = Self.loopback(ports.intent)
            let activity = Self.loopback(ports.activity), asset = Self.loopback(ports.asset)
            func service(_ service: String, _ port: Int, _ role: String, _ extra: [String]) -> Member {
                Member(
                    name: "glimpse-\(service)\(suffix)", executable: "\(options.binaries)/glimpse-\(service)",
                    arguments: ["--port", "\(port)", "--data-dir", "\(folder)/\(service)"] + clock + devices + extra,
                    port: port, role: index == 0 ? role : "shard \(name): \(role)", isService: true,
                    environment: journaled.contains(service) ? ["GLIMPSE_STORE": options.store ?? "sqlite"] : [:])
            }
            let tls = ports.apnsTLS, h2c = ports.apnsH2C
            let apns =
                (options.apnsKey.map { ["--apns-key", "\($0.team):\($0.keyID):\($0.path)"] } ?? ["--apns-auth", "none"])
                + ["--apns-tls-port", "\(tls)", "--apns-h2c-port", "\(h2c)"]
            // Every address is passed, so neither the defaults nor a GLIMPSE_*_ADDRESS left in
            // the environment (from a compose setup, say) points a process elsewhere.
            members += [
                service(
                    "timeline", ports.timeline, "timeline scheduling: kinds, placements, timelines, reload budgets",
                    device + ["--asset-address", asset]),
                service(
                    "intent", ports.intent, "intent execution and the App Group store",
                    ["--timeline-address", timeline]),
                service(
                    "activity", ports.activity,
                    "Live Activities, push tokens and the APNs endpoint (\(tls) TLS, \(h2c) h2c)",
                    ["--timeline-address", timeline] + apns
                        + ((options.seed ?? options.manualStart).map { ["--seed", $0] } ?? [])),
                service("asset", ports.asset, "asset caching", []),
            ]
            map.append(
                .object([
                    JSONMember("name", .string(name)), JSONMember("timeline", .string(timeline)),
                    JSONMember("intent", .string(intent)), JSONMember("activity", .string(activity)),
                    JSONMember("asset", .string(asset)),
                ]))
        }
        let upstreams: [String]
        if shards.count > 1 {
            let path = "\(dir)/shards.json"
            shardMap = (
                path,
                String(decoding: JSONValue.object([JSONMember("shards", .array(map))]).serialized(), as: UTF8.self)
            )
            upstreams = ["--shards", path]
        } else {
            shardMap = nil
            let only = shards[0]
            upstreams = [
                "--timeline-address", Self.loopback(only.timeline), "--intent-address", Self.loopback(only.intent),
                "--activity-address", Self.loopback(only.activity), "--asset-address", Self.loopback(only.asset),
            ]
        }
        members.append(
            Member(
                name: "glimpse-gateway", executable: "\(options.binaries)/glimpse-gateway",
                arguments: ["--port", "\(gatewayPort)", "--data-dir", "\(dir)/gateway"] + clock + devices + device
                    + upstreams
                    + (options.manualStart != nil && options.followRealTime ? ["--follow-real-time", "true"] : []),
                port: gatewayPort, role: "the device: scripts and apps call it (gRPC and JSON)", isService: true))
        for app in options.demoApps {
            members.append(
                Member(
                    name: "demo-\(app.name)", executable: "\(options.binaries)/glimpse-demo",
                    arguments: [
                        app.name, "--port", "\(app.port + offset)", "--gateway", Self.loopback(gatewayPort),
                        "--token-file", "\(dir)/tokens/\(app.name).token",
                    ],
                    port: app.port + offset,
                    role: "seed demo app \(app.name): provider, intent handler, Live Activity views",
                    isService: false))
        }
    }
}
