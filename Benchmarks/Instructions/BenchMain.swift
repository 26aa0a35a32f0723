import ActivityEngine
import ActivityMapping
import ActivityService
import Foundation
import GlimpseJSON
import GlimpseMessages
import GlimpseVocabulary
import IntentEngine
import Rendering
import ServiceKit
import TimelineEngine

/// glimpse-bench-instructions <path> [--ops N] [--repo DIR]
///
/// One hot path, `N` operations, on one thread with no I/O and no clock of the machine, so
/// that `valgrind --tool=callgrind` counts the same instructions in every run whatever else
/// the machine does. Each path's operations run inside a function named
/// `instructionsMeasured…`: Benchmarks/instructions.sh counts only inside it
/// (`--toggle-collect='*Measured*'`: Swift's mangling shortens the name's first word), divides
/// by N and compares with the committed baseline. Run alone, it prints what the operations
/// did (to check they did the work meant).
///
/// Paths:
/// - `unary`: a unary call's message work: a provider's TimelineResponse (the Pixar timeline)
///   encoded, framed with gRPC's 5-byte prefix, unframed and decoded; its request likewise.
/// - `push`: a Live Activity update push as glimpse-activity takes it: the journal record
///   (`ReceivedPush`) encoded, the body parsed, ActivityKit's rules applied, the push log's
///   record made wire-safe.
/// - `reload`: a timeline reload after a tap: the scheduler's request, the provider's answer
///   (six entries) taken in.
/// - `tap`: a widget tap on the intent executor: a declared store intent performed, the
///   placement's reload asked.
/// - `layout`: the Pixar entry's view laid out as a medium widget.
@main
enum InstructionsBench {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        guard let path = arguments.next() else { return usage() }
        var ops = 1_000
        var repo = "."
        while let argument = arguments.next() {
            switch argument {
            case "--ops": ops = Int(arguments.next() ?? "") ?? ops
            case "--repo": repo = arguments.next() ?? repo
            default: return usage()
            }
        }
        let timeline = try GlimpseWidgetV1.Timeline(
            serializedBytes: Array(
                try Data(
                    contentsOf: URL(
                        fileURLWithPath: repo + "/Tests/Wire/GlimpseMessagesTests/Golden/pixar_timeline.swift.bin"))))
        switch path {
        case "unary": print(UnaryWork(timeline: timeline).run(ops))
        case "push":
            var work = PushWork(ops: ops)
            print(work.run(ops))
        case "reload":
            var work = try ReloadWork(ops: ops)
            print(try work.run(ops))
        case "tap":
            var work = TapWork(ops: ops)
            print(work.run(ops))
        case "layout": print(LayoutWork(timeline: timeline).run(ops))
        default: return usage()
        }
    }

    static func usage() {
        print("usage: glimpse-bench-instructions unary|push|reload|tap|layout [--ops N] [--repo DIR]")
    }
}

/// Keeps a value alive past the optimizer.
@inline(never)
func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

struct UnaryWork {
    let response: GlimpseAppV1.TimelineResponse
    let request: GlimpseAppV1.TimelineRequest

    init(timeline: GlimpseWidgetV1.Timeline) {
        response = GlimpseAppV1.TimelineResponse(timeline: timeline)
        var request = GlimpseAppV1.TimelineRequest()
        request.widget = GlimpseAppV1.WidgetRef(kind: "PixarFilmWidget", placementId: 2)
        request.context = GlimpseAppV1.TimelineProviderContext()
        request.context?.family = .systemMedium
        request.context?.bundleId = "com.yourcompany.pixartracker"
        self.request = request
    }

    func run(_ ops: Int) -> String {
        let bytes = instructionsMeasuredUnary(ops)
        return "unary: \(ops) calls, \(bytes) bytes framed per call"
    }

    @inline(never)
    func instructionsMeasuredUnary(_ ops: Int) -> Int {
        var total = 0
        for _ in 0..<ops {
            let call = Self.frame(try! request.serializedBytes())
            let asked = try! GlimpseAppV1.TimelineRequest(serializedBytes: Array(call.dropFirst(5)))
            let answer = Self.frame(try! response.serializedBytes())
            let taken = try! GlimpseAppV1.TimelineResponse(serializedBytes: Array(answer.dropFirst(5)))
            keep((asked, taken))
            total = call.count + answer.count
        }
        return total
    }

    /// gRPC's length prefix: not compressed, 4 bytes of length, big-endian.
    static func frame(_ message: [UInt8]) -> [UInt8] {
        let length = UInt32(message.count)
        var framed: [UInt8] = [0, UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff)]
        framed.append(UInt8(length & 0xff))
        framed.append(contentsOf: message)
        return framed
    }
}

struct PushWork {
    static let app = "com.example.pizza"
    var state: ActivityServiceState
    let tokens: [String]
    let bodies: [[UInt8]]

    /// glimpse-activity's whole state (the engine host's engine), one app, four activities.
    init(ops: Int) {
        let clock = VirtualClock()
        let seed = [UInt8](repeating: 7, count: 32)
        state = ActivityServiceState(
            manager: ActivityManager(
                clock: clock, config: ActivitySettings(), identifiers: HashedIdentifiers(seed: seed)),
            seed: seed)
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = Self.app
        manifest.activityAttributes = [GlimpseAppV1.ActivityAttributesDeclaration(typeName: "PizzaDeliveryAttributes")]
        _ = try! ActivityServiceState.apply(
            &state,
            ActivityCommand(.install(GlimpseActivityV1.InstallAppRequest(manifest: manifest)), appToken: "app-token"))
        for _ in 0..<4 {
            var request = GlimpseActivityV1.RequestActivityRequest()
            request.bundleId = Self.app
            request.attributesType = "PizzaDeliveryAttributes"
            request.attributesJson = #"{"numberOfPizzas":2,"totalAmount":"$24.99"}"#
            request.content = GlimpseActivityV1.Content(
                stateJson: #"{"driverName":"Tim","status":"baking"}"#, staleDate: nil, relevanceScore: 0)
            request.pushType = .token(true)
            _ = try! ActivityServiceState.apply(&state, ActivityCommand(.request(request)))
        }
        try! clock.advance(by: 0)
        _ = state.fireDue()
        tokens = state.manager.allActivities.map { $0.pushToken!.hex }
        let start = clock.now.timeIntervalSince1970
        // Each push newer than the last to its activity: applied, not dropped as stale.
        bodies = (0..<ops).map { n in
            Array(
                #"{"aps":{"timestamp":\#(Int(start) + n + 1),"event":"update","content-state":{"driverName":"John","status":"onTheWay","step":\#(n)}}}"#
                    .utf8)
        }
    }

    mutating func run(_ ops: Int) -> String {
        instructionsMeasuredPush(ops)
        // Told outside the measured function: interpolating an enum goes through reflection.
        var outcomes: [String: Int] = [:]
        for record in state.pushes(after: 0, limit: ops, app: nil) {
            outcomes["\(record.status) \(record.outcomes.first.map { "\($0.kind)" } ?? "none")", default: 0] += 1
        }
        return "push: \(ops) pushes: "
            + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                separator: ", ")
    }

    /// What the engine host does with a push the endpoint hands it: the command's journal
    /// record encoded, then `ActivityServiceState.apply` (Apple's transport checks, the token,
    /// the body parsed, ActivityKit's rules, the push log record, the answer).
    @inline(never)
    mutating func instructionsMeasuredPush(_ ops: Int) {
        for n in 0..<ops {
            var push = GlimpseActivityV1.ReceivedPush()
            push.method = "POST"
            push.path = "/3/device/" + tokens[n % tokens.count]
            push.headers = [
                .init(name: "apns-push-type", value: "liveactivity"),
                .init(name: "apns-topic", value: "com.example.pizza.push-type.liveactivity"),
                .init(name: "apns-priority", value: "5"),
            ]
            push.body = bodies[n]
            push.bodySize = UInt32(bodies[n].count)
            let command = ActivityCommand(.push(push))
            keep(try! command.encode())
            let step = try! ActivityServiceState.apply(&state, command)
            guard case .push = step.answer else { fatalError("not a push's answer") }
            keep(step)
        }
    }
}

struct ReloadWork {
    static let app = AppID("com.example.films")
    var scheduler: TimelineScheduler
    let clock = VirtualClock()
    let entries: [TimelineEngine.TimelineEntry]

    init(ops: Int) throws {
        scheduler = TimelineScheduler(clock: clock)
        try scheduler.install(
            app: Self.app,
            kinds: [WidgetKind(kind: "Films", displayName: "Films", supportedFamilies: [.systemSmall, .systemMedium])])
        let start = clock.now
        entries = (0..<6).map { n in
            TimelineEngine.TimelineEntry(
                date: start + Double(n) * 900, content: [UInt8](repeating: UInt8(n), count: 64),
                url: "films://film/\(n)")
        }
        // A placement per operation: each tap's reload is its placement's first since placing.
        for n in 1...ops {
            let placed = try scheduler.place(
                Placement(id: PlacementID(UInt64(n)), app: Self.app, kind: "Films", family: .systemMedium))
            answer(placed)
        }
        answer(scheduler.fireDue())
    }

    mutating func answer(_ effects: [TimelineEffect]) {
        for effect in effects {
            if case .fetchTimeline(let request) = effect {
                answer(scheduler.timelineReceived(TimelineEngine.Timeline(entries: entries), for: request.id))
            }
        }
    }

    mutating func run(_ ops: Int) throws -> String {
        let fetched = try instructionsMeasuredReload(ops)
        return "reload: \(ops) reloads, \(fetched) provider calls answered"
    }

    @inline(never)
    mutating func instructionsMeasuredReload(_ ops: Int) throws -> Int {
        var fetched = 0
        for n in 1...ops {
            let effects = try scheduler.reload(PlacementID(UInt64(n)), reason: .intentPerformed) + scheduler.fireDue()
            for effect in effects {
                guard case .fetchTimeline(let request) = effect else { continue }
                fetched += 1
                keep(scheduler.timelineReceived(TimelineEngine.Timeline(entries: entries), for: request.id))
            }
        }
        return fetched
    }
}

struct TapWork {
    static let app = AppID("com.example.counter")
    var executor: IntentExecutor

    init(ops: Int) {
        executor = IntentExecutor(clock: VirtualClock())
        try! executor.install(
            app: Self.app, groups: [GroupID("group.example.counter")],
            intents: [
                IntentDefinition(
                    type: "IncrementIntent", title: "Increment",
                    action: .store(
                        group: GroupID("group.example.counter"), operations: [.increment(key: "count", by: 1)]),
                    widgetKinds: ["Counter"])
            ])
        for n in 1...ops {
            executor.placementAdded(
                PlacementID(UInt64(n)), PlacedWidget(app: Self.app, kind: "Counter", family: .systemSmall))
        }
    }

    mutating func run(_ ops: Int) -> String {
        let reloads = instructionsMeasuredTap(ops)
        return "tap: \(ops) taps, \(reloads) reloads asked"
    }

    @inline(never)
    mutating func instructionsMeasuredTap(_ ops: Int) -> Int {
        var reloads = 0
        for n in 1...ops {
            let effects = executor.tap(
                WidgetTap(
                    idempotencyKey: "tap-\(n)", app: Self.app, placement: PlacementID(UInt64(n)),
                    intent: "IncrementIntent"))
            reloads += effects.count { if case .reloadPlacement = $0 { true } else { false } }
        }
        return reloads
    }
}

struct LayoutWork {
    let view: GlimpseWidgetV1.View
    let renderer: Renderer

    init(timeline: GlimpseWidgetV1.Timeline) {
        view = timeline.entries.first?.view ?? GlimpseWidgetV1.View()
        renderer = Renderer(environment: RenderEnvironment(now: Date(timeIntervalSince1970: 1_767_258_000)))
    }

    func run(_ ops: Int) -> String {
        let nodes = instructionsMeasuredLayout(ops)
        return "layout: \(ops) layouts of a medium widget, \(nodes) nodes each"
    }

    @inline(never)
    func instructionsMeasuredLayout(_ ops: Int) -> Int {
        var nodes = 0
        for _ in 0..<ops {
            let layout = renderer.view(view, family: .systemMedium, bundleID: "com.yourcompany.pixartracker")
            nodes = Self.count(layout.root)
            keep(layout)
        }
        return nodes
    }

    static func count(_ node: GlimpseWidgetV1.LayoutNode?) -> Int {
        guard let node else { return 0 }
        return 1 + node.children.reduce(0) { $0 + count($1) }
    }
}
