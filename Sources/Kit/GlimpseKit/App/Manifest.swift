import Foundation
import GlimpseMessages
import Synchronization

/// The app's manifest for `glimpse install`, from what the bundle declares: each widget kind
/// with its families and names, each intent a widget's button runs (performed here), each
/// Live Activity attributes type. Assets are the app's to add.
struct Manifest {
    let json: String

    init(_ configured: Configured, arguments: [String]) throws {
        let usage = "usage: manifest --bundle-id ID --endpoint HOST:PORT [--display-name NAME] [--app-group GROUP]…"
        var options: [String: String] = [:]
        var appGroups: [String] = []
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard flag.hasPrefix("--"), let value = rest.popFirst() else { throw GlimpseAppError(usage) }
            if flag == "--app-group" { appGroups.append(value) } else { options[String(flag.dropFirst(2))] = value }
        }
        guard let bundleID = options["bundle-id"], let endpoint = options["endpoint"] else {
            throw GlimpseAppError(usage)
        }
        let kinds = configured.widgets.map(\.kind)
        var manifest: [String: Any] = [
            "bundleId": bundleID, "displayName": options["display-name"] ?? bundleID, "defaultEndpoint": endpoint,
            "widgets": configured.widgets.map { widget -> [String: Any] in
                var entry: [String: Any] = [
                    "kind": widget.kind, "supportedFamilies": widget.families.map(\.manifestName),
                ]
                if !widget.displayName.isEmpty { entry["displayName"] = widget.displayName }
                if !widget.description.isEmpty { entry["description"] = widget.description }
                return entry
            },
        ]
        // The intents of the widgets' buttons are known once drawn: each kind's placeholder
        // is drawn in each of its families (intents only a later entry shows go in
        // the bundle's `static var intents`).
        for widget in configured.widgets {
            for family in widget.families {
                var context = GlimpseAppV1.TimelineProviderContext()
                context.family = family.wire
                context.bundleId = bundleID
                _ = widget.placeholder((context, Date()))
            }
        }
        let intents = IntentRegistry.shared.types
        if !intents.isEmpty {
            manifest["intents"] = intents.map { type -> [String: Any] in
                var entry: [String: Any] = ["type": type, "handlerEndpoint": "default"]
                if let title = IntentRegistry.shared.title(type), !title.isEmpty { entry["title"] = title }
                let parameters = IntentRegistry.shared.parameters(type).map { parameter -> [String: Any] in
                    var declaration: [String: Any] = [
                        "name": parameter.name, "type": parameter.type, "title": parameter.title,
                    ]
                    if let value = parameter.defaultValue?.manifestJSON { declaration["defaultValue"] = value }
                    return declaration
                }
                if !parameters.isEmpty { entry["parameters"] = parameters }
                if kinds.isEmpty {
                    entry["activityAttributes"] = configured.activities.map(\.attributesType)
                } else {
                    entry["widgetKinds"] = kinds
                }
                return entry
            }
        }
        // The App Groups: asked for, and any `UserDefaults(suiteName:)` made while drawing.
        let groups = Set(appGroups).union(GlimpseKit.UserDefaults.suites.withLock { $0 })
        if !groups.isEmpty { manifest["appGroups"] = groups.sorted() }
        if !configured.activities.isEmpty {
            manifest["activityAttributes"] = configured.activities.map { ["typeName": $0.attributesType] }
        }
        let data = try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
        json = String(decoding: data, as: UTF8.self)
    }
}

extension GlimpseWidgetV1.ParameterValue {
    /// The value as proto3 JSON writes it (int64 as a string, a date as RFC 3339).
    var manifestJSON: [String: Any]? {
        switch kind {
        case .stringValue(let value)?: ["stringValue": value]
        case .intValue(let value)?: ["intValue": String(value)]
        case .doubleValue(let value)?: ["doubleValue": value]
        case .boolValue(let value)?: ["boolValue": value]
        case .dateValue(let value)?: ["dateValue": ISO8601DateFormatter().string(from: value.date)]
        case .bytesValue(let value)?: ["bytesValue": Data(value).base64EncodedString()]
        case nil: nil
        }
    }
}
