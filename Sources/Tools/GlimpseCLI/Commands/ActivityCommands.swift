import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import RPCCore

struct Activities: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List Live Activities: state, content, and where each shows (lockScreen, compact, minimal, expanded)."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Only this app's activities.", valueName: "bundle"))
    var bundle: String?

    @Flag(name: .customLong("include-dismissed"), help: "Also the dismissed ones.")
    var includeDismissed = false

    func run() async throws {
        let request = GlimpseGatewayV1.ListActivitiesRequest(bundleId: bundle ?? "", includeDismissed: includeDismissed)
        let response = try await global.withGateway { gateway in
            try await gateway.activities.list(.init(message: request)).message
        }
        global.emit(response) { ActivityText.list($0.activities) }
    }
}

struct TapActivity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap-activity",
        abstract: "Tap a Live Activity: a Link opens its URL; a Button or Toggle runs its LiveActivityIntent.",
        discussion: """
            Buttons and Toggles are interactive on the Lock Screen and in the expanded Dynamic \
            Island; in the compact and minimal presentations a tap opens the app. The element is \
            its id, its path (qualified by region in the island, e.g. expandedBottom/0.1), its \
            label or its URL; without one the tap is on the view itself (its widgetURL). A \
            retry with the same --key runs nothing again.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The element: id, path, label or URL.")
    var element: String?

    @Option(help: ArgumentHelp("The activity id (default: the most relevant one showing).", valueName: "id"))
    var activity: String?

    @Option(help: ArgumentHelp("lockScreen (default), compact, minimal or expanded.", valueName: "presentation"))
    var presentation: String?

    @Option(help: ArgumentHelp("The idempotency key of this physical tap (default: a new one).", valueName: "key"))
    var key: String?

    func run() async throws {
        let request = GlimpseGatewayV1.ActivityTapRequest(
            activityId: activity ?? "", presentation: presentation ?? "", element: element ?? "",
            idempotencyKey: key ?? "")
        let response = try await global.withGateway { gateway in
            try await gateway.activities.tap(.init(message: request)).message
        }
        global.emit(response) { ActivityText.tap($0) }
    }
}

struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The event log: everything the device and the services did, in order.",
        discussion: """
            One event per line (sequence, time, kind, bundle, summary); with --json one Event \
            object per line. --follow prints the events after --after, then live ones until \
            interrupted.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Keep printing events as they happen.")
    var follow = false

    @Option(help: ArgumentHelp("Only the events after this sequence number.", valueName: "sequence"))
    var after: UInt64 = 0

    @Option(
        name: .customLong("kind"),
        help: ArgumentHelp("Only events of this kind (e.g. entry_changed); repeatable.", valueName: "kind"))
    var kinds: [String] = []

    @Option(help: ArgumentHelp("Only this app's events.", valueName: "bundle"))
    var bundle: String?

    @Option(help: ArgumentHelp("At most this many events (without --follow).", valueName: "n"))
    var limit: Int?

    func validate() throws {
        if let limit, limit <= 0 { throw ValidationError("--limit must be at least 1") }
        if follow, limit != nil { throw ValidationError("--limit does not go with --follow") }
    }

    func run() async throws {
        let context = global.context
        let json = global.json
        let print: @Sendable (GlimpseGatewayV1.Event) -> Void = { event in
            context.say(json ? String(decoding: event.jsonBytes(), as: UTF8.self) : EventText.line(event))
        }
        if follow {
            let request = GlimpseGatewayV1.FollowEventsRequest(
                afterSequence: after, kinds: kinds, bundleId: bundle ?? "")
            try await global.withGateway { gateway in
                try await gateway.events.follow(.init(message: request)) { stream in
                    for try await event in stream { print(event) }
                }
            }
            return
        }
        try await global.withGateway { gateway in
            var cursor = after
            var printed = 0
            while true {
                var request = GlimpseGatewayV1.ListEventsRequest(
                    afterSequence: cursor, kinds: kinds, bundleId: bundle ?? "")
                if let limit { request.limit = UInt32(min(limit - printed, 1000)) }
                let page = try await gateway.events.list(.init(message: request)).message
                for event in page.events { print(event) }
                printed += page.events.count
                if let limit, printed >= limit { break }
                guard !page.events.isEmpty else { break }
                let next = max(page.lastSequence, page.events.last?.sequence ?? cursor)
                guard next > cursor else { break }
                cursor = next
            }
        }
    }
}

struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the device's settings, or change some (each reaches the service whose rules it changes).",
        discussion: """
            Without flags: shows them. --live-activities and --frequent-updates are an app's \
            switches and need --bundle.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Lock or unlock the device.")
    var locked: BoolArgument?

    @Option(name: .customLong("low-power"), help: "Low Power Mode.")
    var lowPower: BoolArgument?

    @Option(help: ArgumentHelp("The locale (e.g. en_US); a change reloads every widget.", valueName: "locale"))
    var locale: String?

    @Option(
        name: .customLong("dynamic-type"),
        help: ArgumentHelp("The Dynamic Type size (e.g. large, xxxLarge).", valueName: "size"))
    var dynamicType: String?

    @Option(help: ArgumentHelp("The app whose switches change.", valueName: "bundle"))
    var bundle: String?

    @Option(name: .customLong("live-activities"), help: "The app's Live Activities switch.")
    var liveActivities: Switch?

    @Option(name: .customLong("frequent-updates"), help: "The app's More Frequent Updates switch.")
    var frequentUpdates: Switch?

    func validate() throws {
        if (liveActivities != nil || frequentUpdates != nil), bundle == nil {
            throw ValidationError("--live-activities and --frequent-updates need --bundle")
        }
        if bundle != nil, liveActivities == nil, frequentUpdates == nil {
            throw ValidationError("--bundle goes with --live-activities or --frequent-updates")
        }
    }

    var request: GlimpseGatewayV1.UpdateSettingsRequest? {
        var request = GlimpseGatewayV1.UpdateSettingsRequest()
        request.locked = locked?.value
        request.lowPowerMode = lowPower?.value
        request.locale = locale
        request.dynamicTypeSize = dynamicType
        request.bundleId = bundle ?? ""
        request.liveActivitiesEnabled = liveActivities?.isOn
        request.frequentUpdatesEnabled = frequentUpdates?.isOn
        return request == GlimpseGatewayV1.UpdateSettingsRequest() ? nil : request
    }

    func run() async throws {
        let update = request
        let settings = try await global.withGateway { gateway in
            if let update {
                return try await gateway.device.updateSettings(.init(message: update)).message
            }
            return try await gateway.device.getSettings(.init(message: GlimpseGatewayV1.GetSettingsRequest())).message
        }
        global.emit(settings) { SettingsText.render($0) }
    }
}

/// App-scope calls, made as the app (with its token from `glimpse install`).
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Call the gateway as an app would (app scope; needs the app's token).",
        subcommands: [ReloadTimelines.self, State.self, RequestActivity.self])

    struct TokenOptions: ParsableArguments {
        @Option(
            name: .customLong("app-token"),
            help: ArgumentHelp(
                "The app token `glimpse install` printed (default: $GLIMPSE_APP_TOKEN).", valueName: "token"))
        var appToken: String?

        func token() throws(CLIFailure) -> String {
            if let appToken, !appToken.isEmpty { return appToken }
            if let token = Current.context.environment["GLIMPSE_APP_TOKEN"], !token.isEmpty { return token }
            throw .usage("this call is the app's: give --app-token (or set GLIMPSE_APP_TOKEN)")
        }
    }

    struct ReloadTimelines: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reload-timelines",
            abstract: "WidgetCenter.reloadTimelines(ofKind:), or reloadAllTimelines() without --kind.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var token: TokenOptions

        @Option(help: ArgumentHelp("The widget kind.", valueName: "kind"))
        var kind: String?

        func run() async throws {
            let appToken = try token.token()
            let response = try await global.withGateway(appToken: appToken) { gateway in
                if let kind {
                    var request = GlimpseTimelineV1.ReloadTimelinesRequest()
                    request.kind = kind
                    request.reason = .appRequest
                    return try await gateway.widgetCenter.reloadTimelines(gateway.request(request)).message
                }
                var request = GlimpseTimelineV1.ReloadAllTimelinesRequest()
                request.reason = .appRequest
                return try await gateway.widgetCenter.reloadAllTimelines(gateway.request(request)).message
            }
            global.emit(response) { WidgetText.reload($0) }
        }
    }

    struct RequestActivity: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-activity",
            abstract:
                "Activity.request(attributes:content:pushType:) from a RequestActivityRequest JSON file, in the foreground.",
            discussion: """
                The file is the proto3 JSON of glimpse.activity.v1.RequestActivityRequest (its \
                bundle id comes from the token). A string "$now", "$now+30m" or "$now-2h" in \
                the attributes or the content state becomes that device instant in seconds \
                since 2001, as JSONEncoder writes a Date. The app is brought to the \
                foreground first, as ActivityKit requires (use --background to see the refusal).
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var token: TokenOptions

        @Argument(help: ArgumentHelp("The request.", valueName: "request.json"))
        var file: String

        @Flag(help: "Request from the background (ActivityKit refuses it unless from a LiveActivityIntent).")
        var background = false

        func run() async throws {
            let appToken = try token.token()
            let template: JSONValue
            do { template = try JSONParser.parse(try Files.read(file)) } catch {
                throw CLIFailure.usage("\(file): \(error)")
            }
            let response = try await global.withGateway(appToken: appToken) { gateway in
                if !background {
                    _ = try await gateway.appLifecycle.setState(
                        gateway.request(GlimpseGatewayV1.SetAppStateRequest(bundleId: "", foreground: true)))
                }
                let now =
                    try await gateway.clock.now(.init(message: .init())).message.now.map {
                        Date(timeIntervalSince1970: Double($0.seconds) + Double($0.nanos) / 1e9)
                    } ?? Date()
                var request = try DemoDevice.request(template, now: now)
                request.inBackground = background
                return try await gateway.activityKit.request(gateway.request(request)).message
            }
            global.emit(response) { "requested \($0.activity?.activityId ?? "")" }
        }
    }

    struct State: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring the app to the foreground (its reloads are not counted) or send it to the background.")

        enum Position: String, ExpressibleByArgument, CaseIterable {
            case foreground, background
        }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var token: TokenOptions

        @Argument(help: "foreground or background.")
        var position: Position

        func run() async throws {
            let appToken = try token.token()
            let request = GlimpseGatewayV1.SetAppStateRequest(bundleId: "", foreground: position == .foreground)
            let response = try await global.withGateway(appToken: appToken) { gateway in
                try await gateway.appLifecycle.setState(gateway.request(request)).message
            }
            global.emit(response) { _ in "the app is in the \(position.rawValue)" }
        }
    }
}
