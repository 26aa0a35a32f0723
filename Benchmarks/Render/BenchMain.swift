import BenchSupport
import Foundation
import GlimpseMessages
import GlimpseRPC
import Rendering
import RPCCore
import RPCNIO

/// glimpse-bench-render [--rounds N] [--gateway-pid PID]
///
/// Against a running demo stack (`glimpse up --detach`; Benchmarks/render.sh starts one):
/// the screen as the gateway has it (`Device.Show`) and the pizza Live Activity's views
/// from its app, then, in this process, each number beside a reference from the same run:
///
/// 1. Layout per widget and per Home Screen / Lock Screen (p50/p99), with the SVG and text
///    writers; the SVG's size. Reference: the same Screen message written as proto3 JSON
///    (one walk over the same trees, no layout).
/// 2. At the gateway, over gRPC: `Device.Render` of the Home Screen as SVG vs `Device.Show`
///    (the same state, not drawn), sequential calls, p50/p99; the gateway's resident memory.
@main
enum BenchMain {
    static func main() async throws {
        var rounds = 2_000
        var gatewayPID: Int32?
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
            case "--gateway-pid": gatewayPID = Int32(arguments.next() ?? "")
            default:
                print("usage: glimpse-bench-render [--rounds N] [--gateway-pid PID]")
                return
            }
        }
        let gatewayClient = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: 7700))
        let pizzaClient = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: 7714))
        let tasks = [gatewayClient, pizzaClient].map { client in Task { try await client.run() } }
        defer {
            gatewayClient.beginGracefulShutdown()
            pizzaClient.beginGracefulShutdown()
            tasks.forEach { $0.cancel() }
        }
        let device = GlimpseGatewayV1.Device.Client(wrapping: gatewayClient)
        let screen = try await device.show(ClientRequest(message: .init())).message
        var views: [String: GlimpseWidgetV1.ActivityViews] = [:]
        for view in screen.lockScreen?.activities ?? [] {
            guard let activity = view.activity else { continue }
            var request = GlimpseAppV1.ActivityViewsRequest()
            request.activityId = activity.activityId
            request.attributesType = activity.attributesType
            request.attributesJson = activity.attributesJson
            request.stateJson = activity.content?.stateJson ?? ""
            request.now = screen.now
            views[activity.activityId] = try await GlimpseAppV1.ActivityConfiguration.Client(wrapping: pizzaClient)
                .views(ClientRequest(message: request)).message.views
        }
        let now = screen.now.map { Date(timeIntervalSince1970: Double($0.seconds)) } ?? Date()
        let renderer = Renderer(environment: RenderEnvironment(now: now))
        let widgets = screen.homePages.flatMap { $0.slots.flatMap(\.widgets) } + (screen.lockScreen?.widgets ?? [])
        print("screen: \(widgets.count) widgets, \(views.count) Live Activity; \(rounds) rounds each (release)")
        print("")
        print("in process                          p50 ms    p99 ms")
        for widget in widgets {
            let name = "widget \(widget.placementId) \(widget.kind) \(family(widget.family))"
            row(name, measure(rounds) { _ = renderer.widget(widget) })
        }
        let home = renderer.homeScreen(screen)
        row("Home Screen layout", measure(rounds) { _ = renderer.homeScreen(screen) })
        row("Lock Screen layout (+ activity)", measure(rounds) { _ = renderer.lockScreen(screen, views: views) })
        row("Dynamic Island layout", measure(rounds) { _ = renderer.dynamicIsland(screen, views: views) })
        row("Home Screen SVG writer", measure(rounds) { _ = SVGWriter.document(home) })
        row("Home Screen text writer", measure(rounds) { _ = TextWriter.text(home) })
        row(
            "Home Screen layout + SVG + text",
            measure(rounds) {
                let layout = renderer.homeScreen(screen)
                _ = SVGWriter.document(layout)
                _ = TextWriter.text(layout)
            })
        row("reference: Screen as proto3 JSON", measure(rounds) { _ = screen.jsonBytes() })
        let svg = SVGWriter.document(home)
        let lockSVG = SVGWriter.document(renderer.lockScreen(screen, views: views))
        print(
            "SVG size: Home Screen \(svg.utf8.count) bytes, Lock Screen \(lockSVG.utf8.count) bytes (images as labelled boxes)"
        )
        print("")

        print("at the gateway (gRPC, sequential)   p50 ms    p99 ms")
        var render = GlimpseGatewayV1.RenderRequest()
        render.target = .homeScreen
        render.svg = true
        let calls = min(rounds, 1_000)
        var renderTimes: [Duration] = []
        var showTimes: [Duration] = []
        for _ in 0..<calls {
            let start = ContinuousClock.now
            _ = try await device.render(ClientRequest(message: render))
            renderTimes.append(ContinuousClock.now - start)
            let again = ContinuousClock.now
            _ = try await device.show(ClientRequest(message: .init()))
            showTimes.append(ContinuousClock.now - again)
        }
        row("Device.Render (Home Screen, SVG)", renderTimes.sorted())
        row("reference: Device.Show", showTimes.sorted())
        if let gatewayPID, let rss = residentMiB(gatewayPID) {
            print("gateway resident memory after \(calls * 2) calls: \(format(rss)) MiB")
        }
    }

    static func measure(_ rounds: Int, _ body: () -> Void) -> [Duration] {
        for _ in 0..<min(50, rounds) { body() }
        var times: [Duration] = []
        times.reserveCapacity(rounds)
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            body()
            times.append(ContinuousClock.now - start)
        }
        return times.sorted()
    }

    static func row(_ name: String, _ sorted: [Duration]) {
        let padded = name.count < 34 ? name + String(repeating: " ", count: 34 - name.count) : name
        print("\(padded)  \(format(percentile(sorted, 0.5), 3))    \(format(percentile(sorted, 0.99), 3))")
    }

    static func family(_ family: GlimpseWidgetV1.WidgetFamily) -> String {
        String(describing: family)
    }

    static func residentMiB(_ pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kb / 1024
    }
}
