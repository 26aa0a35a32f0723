import ArgumentParser
package import GlimpseJSON
package import GlimpseMessages
import GlimpseRPC
import RPCCore

/// What `glimpse export` writes and `glimpse import` reads: the installed apps, the placed
/// widgets and the settings, as the gateway lists them (one JSON object). The gateway has no
/// export call, and its listings do not carry the apps' manifests or their assets: an app
/// is re-installed on import only from a manifest given with --manifest.
package struct DeviceSnapshot: Sendable {
    package static let formatName = "glimpse-export/1"

    package var exportedAt: GoogleProtobuf.Timestamp?
    package var apps: [GlimpseGatewayV1.InstalledApp]
    package var widgets: [GlimpseGatewayV1.Widget]
    package var settings: GlimpseGatewayV1.Settings

    package init(
        exportedAt: GoogleProtobuf.Timestamp?, apps: [GlimpseGatewayV1.InstalledApp],
        widgets: [GlimpseGatewayV1.Widget], settings: GlimpseGatewayV1.Settings
    ) {
        self.exportedAt = exportedAt
        self.apps = apps
        self.widgets = widgets
        self.settings = settings
    }

    package var json: JSONValue {
        var members = [JSONMember("format", .string(Self.formatName))]
        if let exportedAt { members.append(JSONMember("exportedAt", .string(ISO8601Text.format(exportedAt)))) }
        members.append(JSONMember("apps", .array(apps.map { $0.protoJSONValue() })))
        members.append(JSONMember("widgets", .array(widgets.map { $0.protoJSONValue() })))
        members.append(JSONMember("settings", settings.protoJSONValue()))
        return .object(members)
    }

    package struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        package var description: String
    }

    package init(json value: JSONValue) throws(Invalid) {
        guard value.isObject else { throw Invalid(description: "not a glimpse export (expected an object)") }
        guard value["format"]?.stringValue == Self.formatName else {
            throw Invalid(description: "not a glimpse export (format is not \"\(Self.formatName)\")")
        }
        do {
            exportedAt = try value["exportedAt"]?.stringValue.map { text throws(ISO8601Text.Invalid) in
                try ISO8601Text.parse(text)
            }
        } catch {
            throw Invalid(description: "exportedAt: \(error)")
        }
        func array(_ key: String) throws(Invalid) -> [JSONValue] {
            switch value[key] {
            case nil, .null?: return []
            case .array(let items)?: return items
            default: throw Invalid(description: "\(key): expected an array")
            }
        }
        do {
            apps = try array("apps").enumerated().map { index, item throws(ProtoJSONError) in
                try GlimpseGatewayV1.InstalledApp(
                    protoJSONValue: item, path: "apps[\(index)]", ignoringUnknownFields: true)
            }
            widgets = try array("widgets").enumerated().map { index, item throws(ProtoJSONError) in
                try GlimpseGatewayV1.Widget(
                    protoJSONValue: item, path: "widgets[\(index)]", ignoringUnknownFields: true)
            }
            settings =
                try value["settings"].map { item throws(ProtoJSONError) in
                    try GlimpseGatewayV1.Settings(protoJSONValue: item, path: "settings", ignoringUnknownFields: true)
                } ?? GlimpseGatewayV1.Settings()
        } catch let error as ProtoJSONError {
            throw Invalid(description: error.description)
        } catch let error as Invalid {
            throw error
        } catch {
            throw Invalid(description: "\(error)")
        }
    }

    /// The widgets in the order that places them back where they were: by screen, page,
    /// slot, then stack position (the first of a stack before the ones stacked on it).
    package var placementOrder: [GlimpseGatewayV1.Widget] {
        widgets.sorted { a, b in
            let la = a.location ?? GlimpseGatewayV1.Location(), lb = b.location ?? GlimpseGatewayV1.Location()
            return (la.screen.rawValue, la.page, la.slot, la.stackPosition, a.placementId)
                < (lb.screen.rawValue, lb.page, lb.slot, lb.stackPosition, b.placementId)
        }
    }

    /// The request that places `widget` again; `placed` maps the export's placement ids to
    /// the new ones (for Smart Stacks: a widget stacked on another goes with the new id of
    /// the stack's first widget).
    package func placeRequest(
        for widget: GlimpseGatewayV1.Widget, placed: [UInt64: UInt64]
    ) -> GlimpseGatewayV1.PlaceRequest {
        var request = GlimpseGatewayV1.PlaceRequest()
        request.bundleId = widget.bundleId
        request.kind = widget.kind
        request.family = widget.family
        request.configuration = widget.configuration
        if let location = widget.location {
            request.screen = location.screen
            request.page = location.page
            if location.stackPosition > 0, location.screen != .lock,
                let first = widgets.first(where: {
                    guard let other = $0.location else { return false }
                    return other.screen == location.screen && other.page == location.page
                        && other.slot == location.slot && other.stackPosition == 0
                })
            {
                request.stackWith = placed[first.placementId] ?? 0
            }
        }
        return request
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the device's apps, widgets and settings to a JSON file.",
        discussion: """
            Covered: each installed app as Apps.List gives it (bundle, name, kinds, intents, \
            attribute types), each placed widget (kind, family, screen, page, slot, stack \
            position, configuration, and what it showed) and the settings (lock, Low Power \
            Mode, locale, Dynamic Type, each app's switches). Not covered: the apps' manifests \
            and assets (the gateway does not return them; keep your app.json), App Group \
            contents, Live Activities, the clock and the event log.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Where to write it.", valueName: "file"))
    var file: String

    func run() async throws {
        let snapshot = try await global.withGateway { gateway in
            let apps = try await gateway.apps.list(.init(message: GlimpseGatewayV1.ListAppsRequest())).message
            let widgets = try await gateway.widgets.list(.init(message: GlimpseGatewayV1.ListWidgetsRequest())).message
            let settings = try await gateway.device.getSettings(.init(message: GlimpseGatewayV1.GetSettingsRequest()))
                .message
            let now = try? await gateway.clock.now(.init(message: GlimpseGatewayV1.NowRequest())).message
            return DeviceSnapshot(exportedAt: now?.now, apps: apps.apps, widgets: widgets.widgets, settings: settings)
        }
        var bytes = snapshot.json.serialized()
        bytes.append(0x0A)
        do { try Files.write(bytes, to: file) } catch { throw CLIFailure.local("cannot write \(error)") }
        if global.json {
            global.emitJSON(
                .object([
                    JSONMember("file", .string(file)), JSONMember("apps", .number(snapshot.apps.count)),
                    JSONMember("widgets", .number(snapshot.widgets.count)),
                ]))
        } else {
            global.context.say(
                "exported \(AppText.count(UInt32(snapshot.apps.count), "app")), \(snapshot.widgets.count) widget\(snapshot.widgets.count == 1 ? "" : "s") and the settings to \(file)"
            )
        }
    }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Recreate what `glimpse export` wrote: install, place, apply settings.",
        discussion: """
            Installs each --manifest first (an export holds no manifests), then places every \
            exported widget whose app is installed, in page, slot and stack order (slots are \
            taken in that order, so a layout comes back as it was on an empty device), with its \
            configuration, then applies the settings and the installed apps' switches. Widgets \
            of apps that are not installed are skipped and listed. Progress goes to standard \
            error (on a terminal, or always with --progress).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var progress: ProgressOptions

    @Argument(help: ArgumentHelp("A file `glimpse export` wrote.", valueName: "file"))
    var file: String

    @Option(
        name: .customLong("manifest"),
        help: ArgumentHelp("Install this app first (repeatable).", valueName: "app.json|app.yaml"))
    var manifests: [String] = []

    func run() async throws {
        let context = global.context
        let snapshot: DeviceSnapshot
        do {
            let bytes = try Files.read(file)
            snapshot = try DeviceSnapshot(json: try JSONParser.parse(bytes))
        } catch let error as DeviceSnapshot.Invalid {
            throw CLIFailure.usage("\(file): \(error)")
        } catch {
            throw CLIFailure.usage("\(file): \(error)")
        }
        var loaded: [LoadedManifest] = []
        for path in manifests {
            do { loaded.append(try ManifestLoader.load(path: path)) } catch {
                throw CLIFailure.usage(error.description)
            }
        }
        let line = ProgressLine(context: context, forced: progress.progress)
        let report = try await global.withGateway { gateway in
            var report = ImportReport()
            for (index, manifest) in loaded.enumerated() {
                let response = try await gateway.apps.install(.init(message: manifest.installRequest)).message
                report.installed.append(response.bundleId)
                line.update("installed \(index + 1)/\(loaded.count) apps")
            }
            if !loaded.isEmpty { line.finish() }
            let installed = Set(
                try await gateway.apps.list(.init(message: GlimpseGatewayV1.ListAppsRequest())).message.apps.map(
                    \.bundleId))
            let order = snapshot.placementOrder
            var placed: [UInt64: UInt64] = [:]
            for (index, widget) in order.enumerated() {
                guard installed.contains(widget.bundleId) else {
                    report.skippedWidgets.append(widget)
                    continue
                }
                let request = snapshot.placeRequest(for: widget, placed: placed)
                let new = try await gateway.widgets.place(.init(message: request)).message
                placed[widget.placementId] = new.placementId
                report.placed.append((widget.placementId, new.placementId))
                line.update("placed \(index + 1)/\(order.count) widgets")
            }
            if !order.isEmpty { line.finish() }

            var update = GlimpseGatewayV1.UpdateSettingsRequest()
            update.locked = snapshot.settings.locked
            update.lowPowerMode = snapshot.settings.lowPowerMode
            if !snapshot.settings.locale.isEmpty { update.locale = snapshot.settings.locale }
            if !snapshot.settings.dynamicTypeSize.isEmpty { update.dynamicTypeSize = snapshot.settings.dynamicTypeSize }
            _ = try await gateway.device.updateSettings(.init(message: update)).message
            for bundle in snapshot.settings.appSwitches.keys.sorted() where installed.contains(bundle) {
                let switches = snapshot.settings.appSwitches[bundle]!
                var request = GlimpseGatewayV1.UpdateSettingsRequest()
                request.bundleId = bundle
                request.liveActivitiesEnabled = switches.areActivitiesEnabled
                request.frequentUpdatesEnabled = switches.frequentPushesEnabled
                _ = try await gateway.device.updateSettings(.init(message: request)).message
                report.switchesApplied += 1
            }
            report.missingApps = snapshot.apps.map(\.bundleId).filter { !installed.contains($0) }
            return report
        }
        if global.json {
            global.emitJSON(report.json)
        } else {
            context.say(report.text)
        }
    }
}

struct ImportReport: Sendable {
    var installed: [String] = []
    var placed: [(old: UInt64, new: UInt64)] = []
    var skippedWidgets: [GlimpseGatewayV1.Widget] = []
    var switchesApplied = 0
    var missingApps: [String] = []

    var text: String {
        var lines = [
            "imported: \(AppText.count(UInt32(installed.count), "app")) installed, \(placed.count) widget\(placed.count == 1 ? "" : "s") placed, settings applied"
        ]
        for pair in placed { lines.append("  placement \(pair.old) is now \(pair.new)") }
        for widget in skippedWidgets {
            lines.append(
                "  skipped placement \(widget.placementId) (\(widget.bundleId) / \(widget.kind)): the app is not installed"
            )
        }
        for bundle in missingApps {
            lines.append("  not installed: \(bundle) (give its manifest with --manifest)")
        }
        return lines.joined(separator: "\n")
    }

    var json: JSONValue {
        .object([
            JSONMember("installed", .array(installed.map { .string($0) })),
            JSONMember(
                "placed",
                .array(
                    placed.map {
                        .object([
                            JSONMember("from", .string(String($0.old))), JSONMember("to", .string(String($0.new))),
                        ])
                    })),
            JSONMember("skipped", .array(skippedWidgets.map { .string(String($0.placementId)) })),
            JSONMember("missingApps", .array(missingApps.map { .string($0) })),
        ])
    }
}
