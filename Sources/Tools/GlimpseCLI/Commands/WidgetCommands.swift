import ArgumentParser
import GlimpseMessages
import GlimpseRPC
import RPCCore

struct Place: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a widget; returns when the provider's first timeline arrived (or failed).",
        discussion: """
            --config key=value sets a configuration parameter; the type is read from the value \
            (true/false, 42, 2.5, an ISO 8601 date-time, else a string) unless given as \
            key:type=value (string, int, double, bool, date, bytes). Repeat it or list several \
            after one --config.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The app's bundle id.", valueName: "bundle"))
    var bundle: String

    @Argument(help: "The widget kind.")
    var kind: String

    @Option(help: "The widget family.")
    var family: FamilyArgument

    @Option(help: "The screen (default: the family's own: home for system families, lock for accessory ones).")
    var screen: ScreenArgument?

    @Option(help: "The Home Screen page (0 first).")
    var page: UInt32 = 0

    @Option(
        name: .customLong("stack-with"),
        help: ArgumentHelp(
            "Put it in a Smart Stack with this placement (same family, Home Screen).", valueName: "placement"))
    var stackWith: PlacementID?

    @Option(
        name: .customLong("config"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Configuration parameters.", valueName: "key=value"))
    var config: [String] = []

    func validate() throws {
        for item in config {
            do { _ = try ConfigValue.parse(item) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        var request = GlimpseGatewayV1.PlaceRequest()
        request.bundleId = bundle
        request.kind = kind
        request.family = family.family
        request.screen = screen?.screen ?? .unspecified
        request.page = page
        request.stackWith = stackWith ?? 0
        for item in config {
            let (key, value) = try ConfigValue.parse(item)
            request.configuration[key] = value
        }
        let widget = try await global.withGateway { gateway in
            try await gateway.widgets.place(.init(message: request)).message
        }
        global.emit(widget) { widget in
            var text =
                "placed \(widget.placementId): \(widget.bundleId) / \(widget.kind) \(FamilyName.name(widget.family)) at \(WidgetText.location(widget.location))"
            if let error = widget.lastError, !error.code.isEmpty || !error.message.isEmpty {
                text += "\nprovider error: " + WidgetText.providerError(error)
            }
            text += "\n\n" + WidgetText.rendering(widget).map { "  │ " + $0 }.joined(separator: "\n")
            return text
        }
    }
}

struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a placed widget.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The placement id.")
    var placement: PlacementID

    func run() async throws {
        let response = try await global.withGateway { gateway in
            try await gateway.widgets.remove(.init(message: GlimpseGatewayV1.RemoveRequest(placementId: placement)))
                .message
        }
        global.emit(response) { _ in "removed \(placement)" }
    }
}

struct Widgets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the placed widgets and what each shows.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Only this app's widgets.", valueName: "bundle"))
    var bundle: String?

    func run() async throws {
        let response = try await global.withGateway { gateway in
            try await gateway.widgets.list(.init(message: GlimpseGatewayV1.ListWidgetsRequest(bundleId: bundle ?? "")))
                .message
        }
        global.emit(response) { WidgetText.list($0.widgets) }
    }
}

struct Gallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The widget gallery: each of an app's kinds in each family, as its snapshot draws it.",
        discussion: """
            As the Add Widget sheet shows them: the app's getSnapshot(in:) with isPreview true, \
            for every family the kind supports that the device has, drawn as text. Places \
            nothing and charges no budget. A kind whose snapshot failed shows why.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The app.", valueName: "bundle"))
    var bundle: String

    @Option(help: ArgumentHelp("Only this kind.", valueName: "kind"))
    var kind: String?

    @Option(help: ArgumentHelp("The drawing's width (default 60).", valueName: "n"))
    var columns: UInt32 = 60

    func run() async throws {
        let request = GlimpseGatewayV1.GalleryRequest(bundleId: bundle, kind: kind ?? "", text: true, columns: columns)
        let response = try await global.withGateway { gateway in
            try await gateway.widgets.gallery(.init(message: request)).message
        }
        global.emit(response) { WidgetText.gallery($0.previews) }
    }
}

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show one widget (its entry as text, tappable elements, budget) or the whole screen.",
        discussion: """
            With a placement: kind, family and size, the entry's date, its view as text \
            (buttons as [Check in], toggles as [x] label, links as <label>), what a tap can \
            reach (path and id, for `glimpse tap`), the budget and the last provider error. \
            Without: the Home Screen pages with their slots and Smart Stacks, the Lock Screen's \
            widgets and Live Activities, the Dynamic Island and any unreachable service.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The placement id (none: the whole screen).")
    var placement: PlacementID?

    func run() async throws {
        if let placement {
            let widget = try await global.withGateway { gateway in
                try await gateway.widgets.get(.init(message: GlimpseGatewayV1.GetWidgetRequest(placementId: placement)))
                    .message
            }
            global.emit(widget) { WidgetText.detail($0) }
        } else {
            let screen = try await global.withGateway { gateway in
                try await gateway.device.show(.init(message: GlimpseGatewayV1.ShowRequest())).message
            }
            global.emit(screen) { ScreenText.render($0) }
        }
    }
}

struct Tap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Tap a Button, Toggle or Link of a widget (or the widget itself); shows the widget after the tap's reload.",
        discussion: """
            The element is its id, its path (e.g. 0.2), its intent type or its label text, as \
            `glimpse show <placement>` lists them; without one the tap is on the widget itself \
            (its widgetURL) or its only element. A retry with the same --key runs nothing again.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The placement id.")
    var placement: PlacementID

    @Argument(help: "The element: id, path, intent type or label.")
    var element: String?

    @Option(help: ArgumentHelp("The idempotency key of this physical tap (default: a new one).", valueName: "key"))
    var key: String?

    func run() async throws {
        let request = GlimpseGatewayV1.TapRequest(
            placementId: placement, element: element ?? "", idempotencyKey: key ?? "")
        let response = try await global.withGateway { gateway in
            try await gateway.widgets.tap(.init(message: request)).message
        }
        global.emit(response) { WidgetText.tap($0) }
    }
}

struct Reload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask for a reload as the app's WidgetCenter would (budgeted).",
        discussion: """
            `reload <placement>` reloads that placement's kind; `reload --bundle B --kind K` is \
            reloadTimelines(ofKind:), `reload --bundle B` reloadAllTimelines(). Prints when each \
            placement's reload goes out and what it waits for.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The placement id.")
    var placement: PlacementID?

    @Option(help: ArgumentHelp("The app (without a placement).", valueName: "bundle"))
    var bundle: String?

    @Option(help: ArgumentHelp("The widget kind (with --bundle; none: all of the app's kinds).", valueName: "kind"))
    var kind: String?

    func validate() throws {
        if placement != nil, bundle != nil || kind != nil {
            throw ValidationError("give a placement or --bundle (with --kind), not both")
        }
        if placement == nil, bundle == nil {
            throw ValidationError("give a placement, or --bundle B [--kind K]")
        }
        if kind != nil, bundle == nil { throw ValidationError("--kind needs --bundle") }
    }

    func run() async throws {
        let request = GlimpseGatewayV1.ReloadRequest(
            placementId: placement ?? 0, bundleId: bundle ?? "", kind: kind ?? "")
        let response = try await global.withGateway { gateway in
            try await gateway.widgets.reload(.init(message: request)).message
        }
        global.emit(response) { WidgetText.reload($0) }
    }
}

struct Budget: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A placement's reload budget: used, limit, remaining, the next reload and what it waits for.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The placement id.")
    var placement: PlacementID

    func run() async throws {
        let budget = try await global.withGateway { gateway in
            try await gateway.widgets.budget(.init(message: GlimpseGatewayV1.BudgetRequest(placementId: placement)))
                .message
        }
        global.emit(budget) { BudgetText.detail($0) }
    }
}
