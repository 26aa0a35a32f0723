/// The processes of a local stack: the five Glimpse executables on their default ports and
/// the seed demo apps, each with its data under the stack's directory.
struct StackPlan: Sendable {
    struct Member: Sendable, Hashable {
        var name: String          // "glimpse-timeline", "demo-pizza"
        var executable: String    // absolute path
        var arguments: [String]
        var port: Int
        var role: String
        /// Services stop after the gateway and the apps, so nothing reports them gone.
        var isService: Bool
    }

    struct Options: Sendable {
        var directory = "./.glimpse"
        var binaries = "."
        var manualStart: String?        // --clock manual from this instant
        var device: String?
        var demoApps: [DemoApp] = []
        var apnsKey: (team: String, keyID: String, path: String)?
    }

    struct DemoApp: Sendable, Hashable {
        var name: String
        var port: Int
    }

    static let gatewayPort = 7700
    static let apnsTLSPort = 7443
    static let apnsH2CPort = 7444

    var members: [Member]

    init(_ options: Options) {
        let dir = options.directory
        var clock: [String] = []
        if let start = options.manualStart { clock = ["--clock", "manual", "--start-time", start] }
        let device = options.device.map { ["--device", $0] } ?? []
        func service(_ name: String, _ port: Int, _ role: String, _ extra: [String]) -> Member {
            Member(
                name: "glimpse-\(name)", executable: "\(options.binaries)/glimpse-\(name)",
                arguments: ["--port", "\(port)", "--data-dir", "\(dir)/\(name)"] + clock + extra,
                port: port, role: role, isService: true)
        }
        let apns = options.apnsKey.map { ["--apns-key", "\($0.team):\($0.keyID):\($0.path)"] } ?? ["--apns-auth", "none"]
        members = [
            service("timeline", 7701, "timeline scheduling: kinds, placements, timelines, reload budgets", device),
            service("intent", 7702, "intent execution and the App Group store", ["--timeline-address", "127.0.0.1:7701"]),
            service("activity", 7703, "Live Activities, push tokens and the APNs endpoint (7443 TLS, 7444 h2c)",
                    ["--timeline-address", "127.0.0.1:7701"] + apns),
            service("asset", 7704, "asset caching", []),
            service("gateway", Self.gatewayPort, "the device: scripts and apps call it (gRPC and JSON)",
                    device + (options.manualStart == nil ? [] : ["--follow-real-time", "true"])),
        ]
        for app in options.demoApps {
            members.append(Member(
                name: "demo-\(app.name)", executable: "\(options.binaries)/glimpse-demo",
                arguments: [app.name, "--port", "\(app.port)", "--gateway", "127.0.0.1:\(Self.gatewayPort)",
                            "--token-file", "\(dir)/tokens/\(app.name).token"],
                port: app.port, role: "seed demo app \(app.name): provider, intent handler, Live Activity views",
                isService: false))
        }
    }
}
