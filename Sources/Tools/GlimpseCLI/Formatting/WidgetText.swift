package import GlimpseMessages
import GlimpseVocabulary

/// Widgets, budgets and reloads as text.
package enum WidgetText {
    /// `home page 0, slot 2`, `home page 1, slot 0 (stack position 1)`, `lock slot 3`.
    package static func location(_ location: GlimpseGatewayV1.Location?) -> String {
        guard let location else { return "-" }
        switch location.screen {
        case .lock:
            return "lock slot \(location.slot)"
        default:
            var text = "\(ScreenName.name(location.screen)) page \(location.page), slot \(location.slot)"
            if location.stackPosition > 0 { text += " (stack position \(location.stackPosition))" }
            return text
        }
    }

    package static func size(_ size: GlimpseWidgetV1.DisplaySize?) -> String {
        guard let size else { return "" }
        return "\(number(size.width))×\(number(size.height)) pt"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int64(value)) : String(value)
    }

    /// What a widget shows now, in a word: `entry 2026-…Z`, `placeholder`, `stale`, `error`.
    static func state(_ widget: GlimpseGatewayV1.Widget) -> String {
        var parts: [String] = []
        if widget.placeholder || widget.entry == nil {
            parts.append("placeholder")
        } else {
            parts.append("entry " + ISO8601Text.format(widget.entry?.date))
        }
        if widget.stale { parts.append("stale") }
        if let error = widget.lastError, !error.code.isEmpty { parts.append("error \(error.code)") }
        return parts.joined(separator: ", ")
    }

    /// `glimpse widgets`.
    package static func list(_ widgets: [GlimpseGatewayV1.Widget]) -> String {
        guard !widgets.isEmpty else { return "no widgets placed" }
        return Table.render(
            header: ["ID", "BUNDLE", "KIND", "FAMILY", "WHERE", "SHOWS"],
            rows: widgets.map { widget in
                [
                    String(widget.placementId), widget.bundleId, widget.kind, FamilyName.name(widget.family),
                    location(widget.location), state(widget),
                ]
            })
    }

    /// `glimpse gallery`: each preview's kind, family and size, then its drawing (or why
    /// there is none).
    package static func gallery(_ previews: [GlimpseGatewayV1.GalleryResponse.Preview]) -> String {
        guard !previews.isEmpty else { return "no widget kinds" }
        return previews.map { preview in
            var head = "\(preview.kind) · \(FamilyName.name(preview.family)) · \(size(preview.displaySize))"
            if !preview.displayName.isEmpty { head += " — \(preview.displayName)" }
            switch preview.result {
            case .entry?: return head + "\n" + preview.text
            case .error(let error)?: return head + "\n  no preview: \(error.message)\n"
            case nil: return head + "\n  no preview\n"
            }
        }.joined(separator: "\n")
    }

    /// The view of what a widget shows: its entry's view at the entry's date, or the
    /// placeholder.
    package static func rendering(_ widget: GlimpseGatewayV1.Widget) -> [String] {
        guard let entry = widget.entry, !widget.placeholder else { return ["(placeholder)"] }
        guard let view = entry.view else { return ["(empty view)"] }
        let lines = ViewText.lines(view, now: entry.date?.secondsSince1970)
        return lines.isEmpty ? ["(nothing to read: images and shapes only)"] : lines
    }

    /// `glimpse show <placement>`.
    package static func detail(_ widget: GlimpseGatewayV1.Widget) -> String {
        var fields: [(String, String)] = [
            (
                "placement",
                "\(widget.placementId)  \(widget.bundleId) / \(widget.kind)"
                    + (widget.stale ? "  (stale: glimpse-timeline unreachable)" : "")
            ),
            (
                "family",
                FamilyName.name(widget.family) + (widget.displaySize == nil ? "" : "  " + size(widget.displaySize))
            ),
            ("where", location(widget.location)),
        ]
        if !widget.configuration.isEmpty { fields.append(("config", ConfigValue.format(widget.configuration))) }
        if let entry = widget.entry, !widget.placeholder {
            var line = ISO8601Text.format(entry.date)
            if widget.entrySequence > 0 { line += "  (sequence \(widget.entrySequence))" }
            if let relevance = entry.relevance {
                line += "  relevance \(relevance.score)"
                if let duration = relevance.duration {
                    line +=
                        " for " + DurationText.format(seconds: Double(duration.seconds) + Double(duration.nanos) / 1e9)
                }
            }
            fields.append(("entry", line))
            if !entry.widgetUrl.isEmpty { fields.append(("url", entry.widgetUrl)) }
        } else {
            fields.append(("entry", "placeholder"))
        }
        var text = Table.fields(fields)
        text += "\n\n" + rendering(widget).map { "  │ " + $0 }.joined(separator: "\n")
        if !widget.elements.isEmpty {
            text += "\n\ntappable:\n" + elements(widget.elements).indented("  ")
        }
        if let budget = widget.budget {
            text += "\n\nbudget     " + BudgetText.summary(budget)
        }
        if let error = widget.lastError, !error.code.isEmpty || !error.message.isEmpty {
            text += "\nlast error " + providerError(error)
        }
        return text
    }

    package static func elements(_ elements: [GlimpseGatewayV1.Element]) -> String {
        Table.render(
            header: ["PATH", "ID", "KIND", "TARGET", "LABEL"],
            rows: elements.map { element in
                let (kind, target) = elementKind(element)
                return [element.path, element.id.isEmpty ? "-" : element.id, kind, target, element.label]
            })
    }

    static func elementKind(_ element: GlimpseGatewayV1.Element) -> (String, String) {
        switch element.kind {
        case .button(let intent)?: ("button", intent.intentType)
        case .toggle(let intent)?: ("toggle " + (element.isOn ? "on" : "off"), intent.intentType)
        case .link(let url)?: ("link", url)
        case nil: ("-", "-")
        }
    }

    package static func providerError(_ error: GlimpseTimelineV1.ProviderError) -> String {
        var text = error.code.isEmpty ? "error" : error.code
        if !error.message.isEmpty { text += ": \(error.message)" }
        if let at = error.at { text += " at \(ISO8601Text.format(at))" }
        if error.failures > 1 { text += " (\(error.failures) in a row)" }
        if let retry = error.retryAt { text += "; retry at \(ISO8601Text.format(retry))" }
        return text
    }

    /// A tap's outcome.
    package static func tap(_ response: GlimpseGatewayV1.TapResponse) -> String {
        var lines: [String] = []
        var what = "the widget"
        if let element = response.element {
            let (kind, target) = elementKind(element)
            what =
                "\(kind) \(element.label.isEmpty ? element.path : "\"\(element.label)\"")"
                + (target == "-" ? "" : " (\(target))")
        }
        switch response.result {
        case .openedUrl(let url)?:
            lines.append("tapped \(what): opened \(url)")
        case .performed(let perform)?:
            lines.append("tapped \(what): " + performText(perform))
        case nil:
            lines.append("tapped \(what)")
        }
        if !response.idempotencyKey.isEmpty { lines.append("key \(response.idempotencyKey)") }
        if let widget = response.widget {
            lines.append("")
            lines.append(detail(widget))
        }
        return lines.joined(separator: "\n")
    }

    static func performText(_ perform: GlimpseIntentV1.PerformResponse) -> String {
        var text: String
        switch perform.result {
        case .performed(let performed)?:
            text = "performed"
            if let value = performed.value, value.kind != nil { text += " → \(ConfigValue.format(value))" }
        case .failed(let failed)?:
            text = "perform() failed: \(failed.message)"
        case .refused(let refused)?:
            text =
                "refused (\(String(describing: refused.reason)))"
                + (refused.message.isEmpty ? "" : ": \(refused.message)")
        case nil:
            text = "no result"
        }
        if perform.replayed { text += " (replayed: this key was already used)" }
        if !perform.reloadedPlacements.isEmpty {
            text += "; reloaded " + perform.reloadedPlacements.map(String.init).joined(separator: ", ")
        }
        return text
    }

    /// `glimpse reload`: each placement the reload reached.
    package static func reload(_ response: GlimpseTimelineV1.ReloadResponse) -> String {
        guard !response.placements.isEmpty else { return "no placement reached" }
        return Table.render(
            header: ["ID", "RELOAD AT", "WAITING FOR", "BUDGET"],
            rows: response.placements.map { budget in
                [
                    String(budget.placementId), budget.nextReloadAt.map { ISO8601Text.format($0) } ?? "not scheduled",
                    BudgetText.waitReason(budget.waitingFor), "\(budget.used)/\(budget.limit)",
                ]
            })
    }
}

/// A placement's reload budget (`glimpse budget`).
package enum BudgetText {
    package static func waitReason(_ reason: GlimpseTimelineV1.WaitReason) -> String {
        switch reason {
        case .unspecified, .none: "nothing"
        case .policy: "policy"
        case .spacing: "spacing"
        case .budget: "budget"
        case .retryBackoff: "retry backoff"
        case .inFlight: "in flight"
        case .lowPower: "low power"
        case .minimumInterval: "minimum interval"
        case .unrecognized(let raw): "reason \(raw)"
        }
    }

    package static func explanation(_ reason: GlimpseTimelineV1.WaitReason) -> String {
        switch reason {
        case .unspecified, .none: "no reload is wanted"
        case .policy: "the timeline's reload policy date"
        case .spacing: "the 5-minute minimum spacing since the last reload"
        case .budget: "the budget of the rolling window is spent"
        case .retryBackoff: "the provider failed; retrying with backoff"
        case .inFlight: "a provider call is out"
        case .lowPower: "Low Power Mode stretches the interval"
        case .minimumInterval: "an app request waits the minimum interval"
        case .unrecognized(let raw): "reason \(raw)"
        }
    }

    /// One line: `3/70 used, 67 remaining; next reload 2026-…Z (policy)`.
    package static func summary(_ budget: GlimpseTimelineV1.BudgetStatus) -> String {
        var text = "\(budget.used)/\(budget.limit) used, \(budget.remaining) remaining"
        if let next = budget.nextReloadAt {
            text += "; next reload \(ISO8601Text.format(next)) (\(waitReason(budget.waitingFor)))"
        } else {
            text += "; no reload scheduled"
        }
        return text
    }

    /// `glimpse budget <placement>`.
    package static func detail(_ budget: GlimpseTimelineV1.BudgetStatus) -> String {
        let window = budget.windowSeconds > 0 ? DurationText.format(seconds: budget.windowSeconds) : "24h"
        return Table.fields([
            ("placement", String(budget.placementId)),
            ("used", "\(budget.used) of \(budget.limit) in the rolling \(window) window"),
            ("remaining", String(budget.remaining)),
            ("next reload", budget.nextReloadAt.map { ISO8601Text.format($0) } ?? "not scheduled"),
            ("waiting for", waitReason(budget.waitingFor) + ": " + explanation(budget.waitingFor)),
            ("window frees", budget.windowFreesAt.map { ISO8601Text.format($0) } ?? "-"),
        ])
    }
}
