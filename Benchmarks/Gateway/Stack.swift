import BenchSupport
import Foundation
import GlimpseMessages
import GlimpseRPC
import ProtoMapping
import RPCCore
import RPCNIO
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The app's WidgetProvider: each call answers a new entry (a counter in its text) with a
/// Button that bumps it; the "Hourly" kind asks to be reloaded an hour later.
final class BenchProvider: GlimpseAppV1.WidgetProvider.Handler {
    let calls = Mutex(0)

    func placeholder(
        request: ServerRequest<GlimpseAppV1.PlaceholderRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.PlaceholderResponse> {
        ServerResponse(message: .init())
    }

    func snapshot(
        request: ServerRequest<GlimpseAppV1.SnapshotRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.SnapshotResponse> {
        ServerResponse(message: .init())
    }

    func timeline(
        request: ServerRequest<GlimpseAppV1.TimelineRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.TimelineResponse> {
        let n = calls.withLock { value -> Int in
            value += 1
            return value
        }
        var text = GlimpseWidgetV1.View()
        text.kind = .text(.init(content: "n=\(n)"))
        var button = GlimpseWidgetV1.Button()
        button.intent = GlimpseWidgetV1.IntentInvocation(intentType: "Bump")
        var buttonView = GlimpseWidgetV1.View()
        buttonView.kind = .button(button)
        buttonView.id = "bump"
        var stack = GlimpseWidgetV1.Stack()
        stack.children = [text, buttonView]
        var entry = GlimpseWidgetV1.TimelineEntry()
        entry.date = request.message.now
        entry.view = GlimpseWidgetV1.View()
        entry.view?.kind = .stack(stack)
        var timeline = GlimpseWidgetV1.Timeline()
        timeline.entries = [entry]
        if request.message.widget?.kind == "Hourly", let now = request.message.now {
            var after = now
            after.seconds += 3600
            timeline.reloadPolicy = .after(after)
        } else {
            timeline.reloadPolicy = .never
        }
        return ServerResponse(message: .init(timeline: timeline))
    }
}

/// The five executables and clients for each.
final class Stack: @unchecked Sendable {
    let processes: [ServiceProcess]
    let clients: [GRPCClient]
    let tasks: [Task<Void, any Error>]
    let gatewayPort: Int
    let gateway: Gateway
    let timeline, intent, activity, asset: GlimpseClockV1.Clock.Client
    let timelineService: GlimpseTimelineV1.TimelineService.Client
    let intentService: GlimpseIntentV1.IntentService.Client

    struct Gateway: Sendable {
        let apps: GlimpseGatewayV1.Apps.Client
        let widgets: GlimpseGatewayV1.Widgets.Client
        let clock: GlimpseGatewayV1.Clock.Client
    }

    init(bin: String) throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("bench-gateway-\(UUID().uuidString)")
        let manual = ["--clock", "manual", "--start-time", "2026-01-01T09:00:00Z", "--log-level", "warning"]
        func start(_ name: String, _ extra: [String]) throws -> ServiceProcess {
            guard
                let process = try ServiceProcess.start(
                    "\(bin)/glimpse-\(name)",
                    [
                        "--port", "0", "--data-dir", data.appendingPathComponent(name).path,
                    ] + manual + extra)
            else { throw CocoaError(.fileNoSuchFile) }
            return process
        }
        let timelineProcess = try start("timeline", [])
        let address = "127.0.0.1:\(timelineProcess.port)"
        let intentProcess = try start("intent", ["--timeline-address", address])
        let activityProcess = try start(
            "activity",
            ["--timeline-address", address, "--apns-tls-port", "0", "--apns-h2c-port", "0", "--apns-auth", "none"])
        let assetProcess = try start("asset", [])
        let gatewayProcess = try start(
            "gateway",
            [
                "--timeline-address", address, "--intent-address", "127.0.0.1:\(intentProcess.port)",
                "--activity-address", "127.0.0.1:\(activityProcess.port)", "--asset-address",
                "127.0.0.1:\(assetProcess.port)",
                "--event-log-capacity", "1000000", "--metrics-port", "0",
            ])
        processes = [timelineProcess, intentProcess, activityProcess, assetProcess, gatewayProcess]
        let clients = processes.map { GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: $0.port)) }
        self.clients = clients
        tasks = clients.map { client in Task { try await client.run() } }
        gatewayPort = gatewayProcess.port
        gateway = Gateway(
            apps: .init(wrapping: clients[4]), widgets: .init(wrapping: clients[4]), clock: .init(wrapping: clients[4]))
        timeline = .init(wrapping: clients[0])
        intent = .init(wrapping: clients[1])
        activity = .init(wrapping: clients[2])
        asset = .init(wrapping: clients[3])
        timelineService = .init(wrapping: clients[0])
        intentService = .init(wrapping: clients[1])
    }

    func stop() {
        for client in clients { client.beginGracefulShutdown() }
        for process in processes.reversed() { process.stop() }
    }
}

/// Counts the entry changes seen per placement and lets a caller wait for the next one.
final class EntryWatch: Sendable {
    private let state = Mutex<([UInt64: Int], [(UInt64, Int, CheckedContinuation<Void, Never>)])>(([:], []))

    func saw(_ placement: UInt64) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.0[placement, default: 0] += 1
            let count = state.0[placement]!
            let ready = state.1.filter { $0.0 == placement && count > $0.1 }.map(\.2)
            state.1.removeAll { $0.0 == placement && count > $0.1 }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func count(_ placement: UInt64) -> Int { state.withLock { $0.0[placement] ?? 0 } }

    func wait(_ placement: UInt64, above count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if (state.0[placement] ?? 0) > count { return true }
                state.1.append((placement, count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
