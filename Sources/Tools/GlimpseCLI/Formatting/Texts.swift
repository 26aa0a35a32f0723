package import GlimpseMessages
import GlimpseVocabulary

package enum ActivityText {
    package static func state(_ state: GlimpseActivityV1.ActivityState) -> String {
        switch state {
        case .unspecified: "unspecified"
        case .pending: "pending"
        case .active: "active"
        case .stale: "stale"
        case .ended: "ended"
        case .dismissed: "dismissed"
        case .unrecognized(let raw): "state \(raw)"
        }
    }

    static func headline(_ view: GlimpseGatewayV1.ActivityView) -> String {
        let activity = view.activity ?? GlimpseActivityV1.Activity()
        var text = "\(activity.activityId) \(activity.bundleId) \(activity.attributesType) \(state(activity.state))"
        if !view.presentations.isEmpty { text += " (" + view.presentations.joined(separator: ", ") + ")" }
        if view.stale { text += " (stale)" }
        return text
    }

    /// `glimpse activities`.
    package static func list(_ views: [GlimpseGatewayV1.ActivityView]) -> String {
        guard !views.isEmpty else { return "no Live Activities" }
        return Table.render(
            header: ["ID", "BUNDLE", "ATTRIBUTES", "STATE", "SHOWS", "CONTENT"],
            rows: views.map { view in
                let activity = view.activity ?? GlimpseActivityV1.Activity()
                var shows = view.presentations.isEmpty ? "-" : view.presentations.joined(separator: ",")
                if view.stale { shows += " (stale)" }
                return [
                    activity.activityId, activity.bundleId, activity.attributesType, state(activity.state), shows,
                    activity.content?.stateJson ?? "{}",
                ]
            })
    }

    /// `glimpse tap-activity`: what was tapped, what it did, and the activity after its intent.
    package static func tap(_ response: GlimpseGatewayV1.ActivityTapResponse) -> String {
        var what = "the Live Activity"
        if let element = response.element {
            let (kind, target) = WidgetText.elementKind(element)
            what =
                "\(kind) \(element.label.isEmpty ? element.path : "\"\(element.label)\"")"
                + (target == "-" ? "" : " (\(target))")
        }
        var lines: [String] = []
        if let performed = response.performed {
            lines.append("tapped \(what): " + WidgetText.performText(performed))
        } else {
            lines.append("tapped \(what): opened \(response.openedUrl)")
        }
        if !response.idempotencyKey.isEmpty { lines.append("key \(response.idempotencyKey)") }
        if let activity = response.activity {
            lines.append("\(activity.activityId) \(state(activity.state)) \(activity.content?.stateJson ?? "{}")")
        }
        return lines.joined(separator: "\n")
    }
}

package enum AppText {
    /// `glimpse apps`.
    package static func list(_ apps: [GlimpseGatewayV1.InstalledApp]) -> String {
        guard !apps.isEmpty else { return "no apps installed" }
        return Table.render(
            header: ["BUNDLE", "NAME", "WIDGET KINDS", "INTENTS", "ACTIVITIES", "STATE", "INSTALLED"],
            rows: apps.map { app in
                [
                    app.bundleId, app.displayName, list(app.widgetKinds), list(app.intents),
                    list(app.activityAttributes),
                    app.active ? "foreground" : "background", ISO8601Text.format(app.installedAt),
                ]
            })
    }

    static func list(_ names: [String]) -> String { names.isEmpty ? "-" : names.joined(separator: ",") }

    package static func installed(_ response: GlimpseGatewayV1.InstallResponse) -> String {
        "installed \(response.bundleId): \(count(response.widgetKinds, "widget kind")), \(count(response.intents, "intent")), \(count(response.assets, "asset"))"
    }

    package static func uninstalled(_ bundle: String, _ response: GlimpseGatewayV1.UninstallResponse) -> String {
        var text = "uninstalled \(bundle)"
        if !response.removedPlacements.isEmpty {
            text += "; removed placements " + response.removedPlacements.map(String.init).joined(separator: ", ")
        }
        if !response.endedActivities.isEmpty {
            text += "; ended activities " + response.endedActivities.joined(separator: ", ")
        }
        return text
    }

    static func count(_ n: UInt32, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}

package enum ClockText {
    /// `2026-01-01T15:00:00Z  manual, frozen` (+ what an advance stepped through).
    package static func state(_ state: GlimpseGatewayV1.ClockState) -> String {
        var modes: [String] = [state.manual ? "manual" : "system"]
        if state.manual { modes.append(state.frozen ? "frozen" : "following real time") }
        if let offset = state.offset, offset.seconds != 0 || offset.nanos != 0 {
            modes.append("offset " + DurationText.format(seconds: Double(offset.seconds) + Double(offset.nanos) / 1e9))
        }
        var text = ISO8601Text.format(state.now) + "  " + modes.joined(separator: ", ")
        if state.steps > 0 || state.events > 0 { text += "  (\(state.steps) steps, \(state.events) events)" }
        return text
    }
}

package enum EventText {
    /// One event on one line: `12  2026-…Z  entry_changed  com.example.pizza  summary`.
    package static func line(_ event: GlimpseGatewayV1.Event) -> String {
        [
            String(event.sequence), ISO8601Text.format(event.at), event.kind.isEmpty ? "-" : event.kind,
            event.bundleId.isEmpty ? "-" : event.bundleId, event.summary,
        ].joined(separator: "  ")
    }
}

package enum SettingsText {
    package static func render(_ settings: GlimpseGatewayV1.Settings) -> String {
        var text = Table.fields([
            ("device", settings.device.isEmpty ? "-" : settings.device),
            ("locked", settings.locked ? "true" : "false"),
            ("low power", settings.lowPowerMode ? "true" : "false"),
            ("locale", settings.locale.isEmpty ? "-" : settings.locale),
            ("dynamic type", settings.dynamicTypeSize.isEmpty ? "-" : settings.dynamicTypeSize),
        ])
        if !settings.appSwitches.isEmpty {
            text +=
                "\n\n"
                + Table.render(
                    header: ["BUNDLE", "LIVE ACTIVITIES", "FREQUENT UPDATES"],
                    rows: settings.appSwitches.keys.sorted().map { bundle in
                        let info = settings.appSwitches[bundle]!
                        return [
                            bundle, info.areActivitiesEnabled ? "on" : "off", info.frequentPushesEnabled ? "on" : "off",
                        ]
                    })
        }
        return text
    }
}
