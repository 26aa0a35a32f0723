import ArgumentParser
import GlimpseMessages
import GlimpseRPC
import RPCCore

/// `glimpse render`: what the device looks like, drawn by the gateway at the device's real
/// sizes: text for the terminal, SVG or PNG files, or the layout (every element's frame).
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the screen, a widget or a Live Activity: text, SVG, PNG or the layout as JSON.",
        discussion: """
            What: screen (Home Screen, Lock Screen and Dynamic Island side by side; the \
            default), home [--page N], lock, island, widget <placement>, activity [<id>] \
            [--presentation lockScreen|compact|minimal|expanded]. \
            --format text (default) prints box drawing; svg and png write --out (png needs \
            rsvg-convert, Debian's librsvg2-bin); layout prints the layout as proto3 JSON.
            """)

    enum What: String, ExpressibleByArgument, CaseIterable {
        case screen, home, lock, island, widget, activity
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, svg, png, layout
    }

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case fullColor, accented, vibrant
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "screen, home, lock, island, widget or activity.")
    var what: What = .screen

    @Argument(help: "The placement id (widget) or the activity id (activity; default: the most relevant).")
    var id: String?

    @Option(help: "text, svg, png or layout.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Where svg and png go (svg without it: standard output).", valueName: "file"))
    var out: String?

    @Option(help: "Home Screen page (0 first).")
    var page: UInt32 = 0

    @Option(help: "activity: lockScreen, compact, minimal or expanded.")
    var presentation: String?

    @Option(help: "widget: fullColor, accented or vibrant (default: the screen's own).")
    var mode: Mode?

    @Flag(help: "Dark appearance.")
    var dark = false

    @Option(help: "Text width in columns (default: the target's natural width).")
    var columns: UInt32?

    @Flag(name: .customLong("embed-images"), help: "SVG/PNG: embed the apps' images instead of labelled boxes.")
    var embedImages = false

    func validate() throws {
        if what == .widget, id.flatMap(UInt64.init) == nil {
            throw ValidationError("widget needs its placement id (glimpse widgets lists them)")
        }
        if id != nil, what != .widget, what != .activity {
            throw ValidationError("only widget and activity take an id")
        }
        if let presentation, presentation != "lockScreen", what != .activity {
            throw ValidationError(
                "only activity takes --presentation; \(what.rawValue) shows what the device shows (glimpse render activity [<id>] --presentation expanded)"
            )
        }
        if format == .png, out == nil { throw ValidationError("png needs --out FILE") }
    }

    func run() async throws {
        let request = self.request
        let rendering = try await global.withGateway { gateway in
            try await gateway.device.render(.init(message: request)).message
        }
        switch format {
        case .text:
            if global.json { global.emit(rendering) { _ in "" } } else { global.context.output.write(rendering.text) }
        case .layout:
            global.context.say(String(decoding: (rendering.layout ?? .init()).jsonBytes(), as: UTF8.self))
        case .svg:
            if let out {
                try Pictures.write(svg: rendering.svg, to: out)
                global.context.note("wrote \(out)")
            } else {
                global.context.output.write(rendering.svg)
            }
        case .png:
            try Pictures.writePNG(svg: rendering.svg, to: out ?? "")
            global.context.note("wrote \(out ?? "")")
        }
    }

    var request: GlimpseGatewayV1.RenderRequest {
        var request = GlimpseGatewayV1.RenderRequest()
        request.target =
            switch what {
            case .screen: .unspecified
            case .home: .homeScreen
            case .lock: .lockScreen
            case .island: .dynamicIsland
            case .widget: .widget
            case .activity: .activity
            }
        if what == .widget { request.placementId = id.flatMap(UInt64.init) ?? 0 }
        if what == .activity { request.activityId = id ?? "" }
        request.presentation = presentation ?? ""
        request.page = page
        request.colorScheme = dark ? .dark : .light
        request.renderingMode =
            switch mode {
            case .fullColor?: .fullColor
            case .accented?: .accented
            case .vibrant?: .vibrant
            case nil: .unspecified
            }
        request.columns = columns ?? 0
        request.embedImages = embedImages || format == .png
        switch format {
        case .text: request.text = true
        case .svg, .png: request.svg = true
        case .layout: request.layout = true
        }
        return request
    }
}
