import BenchSupport
import Foundation
import GlimpseMessages
import GlimpseRPC
import ProtoMapping
import RPCCore
import RPCNIO
import Synchronization
import NIOCore

/// glimpse-bench-gateway --bin DIR [--taps N] [--placements P]
///
/// The whole stack as release executables (glimpse-timeline, -intent, -activity, -asset and
/// glimpse-gateway, manual clocks, fresh data directories), with this process as the app's
/// WidgetProvider. Numbers, each beside a reference measured in the same run:
///
/// 1. Tap → new entry at the gateway (`Widgets.Tap` returns with the entry the tap's reload
///    brought: gateway → glimpse-intent → glimpse-timeline → provider → WatchEntries →
///    gateway), p50/p99 over N sequential taps. Reference: the same tap without the
///    gateway (glimpse-intent's Perform, then the entry on glimpse-timeline's WatchEntries).
/// 2. `Clock.Advance(24h)` with P placements whose timelines ask for a reload every hour:
///    wall time, steps, events logged, the gateway's resident memory. Reference: the next
///    24 h moved at the services directly (AdvanceTo each, no conductor).
/// 3. JSON vs gRPC per call at the gateway: `Clock.Now` over gRPC, and the same over
///    JSON on HTTP/1.1 (keep-alive) — sequential calls, p50/p99.
@main
enum BenchMain {
    static func main() async throws {
        var taps = 2_000
        var placements = 10_000
        var bin = ""
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--taps": taps = Int(arguments.next() ?? "") ?? taps
            case "--placements": placements = Int(arguments.next() ?? "") ?? placements
            case "--bin": bin = arguments.next() ?? ""
            default:
                print("usage: glimpse-bench-gateway --bin DIR [--taps N] [--placements P]")
                return
            }
        }
        let provider = BenchProvider()
        let providerTransport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let providerServer = GRPCServer(transport: providerTransport, services: [provider])
        let providerTask = Task { try await providerServer.serve() }
        let providerPort = try await providerTransport.listeningAddress().port!

        let stack = try Stack(bin: bin)
        defer { stack.stop() }
        let gateway = stack.gateway
        print("stack: 5 executables on loopback, manual clocks; provider in this process")

        // 1. Taps.
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = "com.example.counter"
        manifest.appGroups = ["group.com.example.counter"]
        manifest.defaultEndpoint = "127.0.0.1:\(providerPort)"
        var kind = GlimpseAppV1.WidgetKindDeclaration()
        kind.kind = "Counter"
        manifest.widgets = [kind]
        var bump = GlimpseAppV1.IntentDeclaration()
        bump.type = "Bump"
        bump.widgetKinds = ["Counter"]
        var action = GlimpseAppV1.StoreAction()
        action.appGroup = "group.com.example.counter"
        var increment = GlimpseAppV1.StoreOperation.Increment()
        increment.key = "n"
        increment.by = 1
        action.operations = [GlimpseAppV1.StoreOperation(kind: .increment(increment))]
        bump.action = .store(action)
        manifest.intents = [bump]
        _ = try await gateway.apps.install(ClientRequest(message: .init(manifest: manifest)))
        var tapped: [UInt64] = []
        for _ in 0..<8 {
            var place = GlimpseGatewayV1.PlaceRequest()
            place.bundleId = "com.example.counter"
            place.kind = "Counter"
            place.family = .systemSmall
            tapped.append(try await gateway.widgets.place(ClientRequest(message: place)).message.placementId)
        }
        var latencies: [Duration] = []
        let clock = ContinuousClock()
        for i in 0..<taps {
            var tap = GlimpseGatewayV1.TapRequest()
            tap.placementId = tapped[i % tapped.count]
            tap.element = "bump"
            let start = clock.now
            let answer = try await gateway.widgets.tap(ClientRequest(message: tap)).message
            latencies.append(clock.now - start)
            precondition(answer.widget?.entry != nil)
        }
        latencies.sort()
        let reference = try await directTaps(stack, placements: tapped, taps: taps)
        print("")
        print("tap -> new entry (\(taps) sequential taps, \(tapped.count) placements)")
        print(
            "  via glimpse-gateway:         p50 \(format(percentile(latencies, 0.5), 2)) ms   p99 \(format(percentile(latencies, 0.99), 2)) ms   (goal p99 < 5 ms)"
        )
        print(
            "  reference, services only:    p50 \(format(percentile(reference, 0.5), 2)) ms   p99 \(format(percentile(reference, 0.99), 2)) ms"
        )

        // 2. A day for P placements.
        var hourly = GlimpseAppV1.AppManifest()
        hourly.bundleId = "com.example.hourly"
        hourly.defaultEndpoint = "127.0.0.1:\(providerPort)"
        var hourlyKind = GlimpseAppV1.WidgetKindDeclaration()
        hourlyKind.kind = "Hourly"
        hourly.widgets = [hourlyKind]
        _ = try await gateway.apps.install(ClientRequest(message: .init(manifest: hourly)))
        let placeStart = clock.now
        let next = Counter()
        let total = placements
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    while true {
                        guard next.take() < total else { return }
                        var place = GlimpseGatewayV1.PlaceRequest()
                        place.bundleId = "com.example.hourly"
                        place.kind = "Hourly"
                        place.family = .systemSmall
                        _ = try await gateway.widgets.place(ClientRequest(message: place))
                    }
                }
            }
            try await group.waitForAll()
        }
        let placeSeconds = (clock.now - placeStart).seconds
        let callsBefore = provider.calls.withLock { $0 }
        let advanceStart = clock.now
        var advance = GlimpseGatewayV1.AdvanceRequest()
        advance.by = GoogleProtobuf.Duration(seconds: 24 * 3600)
        let advanced = try await gateway.clock.advance(
            ClientRequest(message: advance), options: CallOptions(timeout: .seconds(3600))
        ).message
        let advanceSeconds = (clock.now - advanceStart).seconds
        let callsDay = provider.calls.withLock { $0 } - callsBefore
        let gatewayResident = stack.processes.last!.residentBytes
        let logBytes = stack.processes.last!.metric("glimpse_gateway_event_log_bytes") ?? 0
        let logEvents = stack.processes.last!.metric("glimpse_gateway_event_log_events") ?? 0
        let referenceStart = clock.now
        let target = Date(timeIntervalSince1970: Double(advanced.now?.seconds ?? 0) + 24 * 3600)
        for service in [stack.timeline, stack.intent, stack.activity, stack.asset, stack.timeline] {
            var request = GlimpseClockV1.AdvanceToRequest()
            request.to = GoogleProtobuf.Timestamp(target)
            _ = try await service.advanceTo(
                ClientRequest(message: request), options: CallOptions(timeout: .seconds(3600)))
        }
        let referenceSeconds = (clock.now - referenceStart).seconds
        let callsReference = provider.calls.withLock { $0 } - callsBefore - callsDay
        print("")
        print(
            "clock advance 24h, \(placements) placements reloading hourly (placed in \(format(placeSeconds, 1)) s, \(format(Double(placements) / placeSeconds, 0)) places/s)"
        )
        print(
            "  via glimpse-gateway Clock.Advance:  \(format(advanceSeconds, 2)) s wall, \(advanced.steps) steps, \(advanced.events) events logged, \(callsDay) provider calls, gateway RSS \(gatewayResident / 1_048_576) MiB"
        )
        print(
            "  the gateway's event log: \(Int(logEvents)) events kept in \(format(logBytes / 1_048_576, 1)) MiB, \(format(logBytes / max(1, logEvents), 0)) B per event (glimpse_gateway_event_log_bytes)"
        )
        print(
            "  reference, AdvanceTo at each service: \(format(referenceSeconds, 2)) s wall, \(callsReference) provider calls (no conductor, no waiting for the screen)"
        )

        // 3. JSON vs gRPC.
        let calls = 5_000
        var grpc: [Duration] = []
        for _ in 0..<calls {
            let start = clock.now
            _ = try await gateway.clock.now(ClientRequest(message: .init()))
            grpc.append(clock.now - start)
        }
        grpc.sort()
        print("")
        print("per call at the gateway, Clock.Now, \(calls) sequential calls")
        print(
            "  gRPC (reference):            p50 \(format(percentile(grpc, 0.5), 3)) ms   p99 \(format(percentile(grpc, 0.99), 3)) ms"
        )
        if let json = try jsonCalls(port: stack.gatewayPort, count: calls) {
            print(
                "  JSON over HTTP/1.1:          p50 \(format(percentile(json, 0.5), 3)) ms   p99 \(format(percentile(json, 0.99), 3)) ms"
            )
        } else {
            print("  JSON over HTTP/1.1:          not answered (the gateway serves no JSON)")
        }
        providerTask.cancel()
    }

    final class Counter: Sendable {
        private let value = Mutex(0)
        func take() -> Int {
            value.withLock { v in
                defer { v += 1 }; return v
            }
        }
    }

    /// The tap path without the gateway: Perform at glimpse-intent, then the tapped
    /// placement's next entry on glimpse-timeline's WatchEntries.
    static func directTaps(_ stack: Stack, placements: [UInt64], taps: Int) async throws -> [Duration] {
        let seen = EntryWatch()
        let watching = Task {
            try await stack.timelineService.watchEntries(ClientRequest(message: .init())) { stream in
                for try await change in stream { seen.saw(change.placementId) }
            }
        }
        defer { watching.cancel() }
        try await Task.sleep(for: .milliseconds(200))
        var latencies: [Duration] = []
        let clock = ContinuousClock()
        for i in 0..<taps {
            let placement = placements[i % placements.count]
            var perform = GlimpseIntentV1.PerformRequest()
            perform.idempotencyKey = UUID().uuidString
            perform.bundleId = "com.example.counter"
            perform.placementId = placement
            perform.intentType = "Bump"
            let before = seen.count(placement)
            let start = clock.now
            _ = try await stack.intentService.perform(ClientRequest(message: perform))
            await seen.wait(placement, above: before)
            latencies.append(clock.now - start)
        }
        return latencies.sorted()
    }

    /// POST /v1/clock/now over one keep-alive HTTP/1.1 connection.
    static func jsonCalls(port: Int, count: Int) throws -> [Duration]? {
        let connection = try HTTPConnection(port: port)
        defer { connection.close() }
        let request = Array(
            "POST /v1/clock/now HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n"
                .utf8)
        guard let first = try connection.roundTrip(request), first.hasPrefix("HTTP/1.1 200") else { return nil }
        var latencies: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            guard try connection.roundTrip(request) != nil else { return nil }
            latencies.append(clock.now - start)
        }
        return latencies.sorted()
    }
}
