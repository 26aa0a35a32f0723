package import GlimpseMessages

/// The whole screen (`glimpse show` without a placement).
package enum ScreenText {
    package static func render(_ screen: GlimpseGatewayV1.Screen) -> String {
        var lines: [String] = []
        var head = screen.device.isEmpty ? "device" : screen.device
        if screen.size != nil { head += "  " + WidgetText.size(screen.size) }
        head += "  " + (screen.locked ? "locked" : "unlocked")
        if let now = screen.now { head += "  " + ISO8601Text.format(now) }
        lines.append(head)
        let now = screen.now?.secondsSince1970

        lines.append("")
        lines.append("Home Screen")
        if screen.homePages.allSatisfy({ $0.slots.isEmpty }) {
            lines.append("  (no widgets)")
        }
        for (pageIndex, page) in screen.homePages.enumerated() where !page.slots.isEmpty {
            lines.append("  page \(pageIndex)")
            for (slotIndex, slot) in page.slots.enumerated() {
                if slot.widgets.count > 1 {
                    lines.append("    slot \(slotIndex)  Smart Stack of \(slot.widgets.count)")
                    for (position, widget) in slot.widgets.enumerated() {
                        lines.append("      " + headline(widget) + (position == 0 ? "  (on top)" : ""))
                        if position == 0 { lines += body(widget, now: now, indent: "        ") }
                    }
                } else if let widget = slot.widgets.first {
                    lines.append("    slot \(slotIndex)  " + headline(widget))
                    lines += body(widget, now: now, indent: "      ")
                } else {
                    lines.append("    slot \(slotIndex)  (empty)")
                }
            }
        }

        lines.append("")
        lines.append("Lock Screen")
        let lock = screen.lockScreen ?? GlimpseGatewayV1.Screen.LockScreen()
        if lock.widgets.isEmpty && lock.activities.isEmpty { lines.append("  (no widgets, no Live Activities)") }
        for widget in lock.widgets {
            lines.append("  " + headline(widget))
            lines += body(widget, now: now, indent: "    ")
        }
        for view in lock.activities {
            lines.append("  " + ActivityText.headline(view))
            if let content = view.activity?.content, !content.stateJson.isEmpty {
                lines.append("    " + content.stateJson)
            }
        }

        lines.append("")
        lines.append("Dynamic Island  " + dynamicIsland(screen.dynamicIsland))
        if !screen.unreachableServices.isEmpty {
            lines.append("")
            lines.append(
                "unreachable: " + screen.unreachableServices.joined(separator: ", ") + " (showing the last known state)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// `#7 com.example.pizza / OrderStatus systemSmall`.
    static func headline(_ widget: GlimpseGatewayV1.Widget) -> String {
        var text = "#\(widget.placementId) \(widget.bundleId) / \(widget.kind) \(FamilyName.name(widget.family))"
        if widget.stale { text += " (stale)" }
        if let error = widget.lastError, !error.code.isEmpty { text += " (error \(error.code))" }
        return text
    }

    static func body(_ widget: GlimpseGatewayV1.Widget, now: Double?, indent: String) -> [String] {
        WidgetText.rendering(widget).map { indent + "│ " + $0 }
    }

    package static func dynamicIsland(_ island: GlimpseGatewayV1.DynamicIsland?) -> String {
        guard let island else { return "none" }
        switch island.mode {
        case .unspecified, .none:
            return "none"
        case .compact:
            return "compact: \(island.activityId)"
        case .minimal:
            return "minimal: \(island.activityId) (attached), \(island.detachedActivityId) (detached)"
        case .expanded:
            var text = "expanded: \(island.activityId)"
            if !island.reason.isEmpty { text += " (\(island.reason))" }
            if let until = island.until { text += " until \(ISO8601Text.format(until))" }
            return text
        case .unrecognized(let raw):
            return "mode \(raw): \(island.activityId)"
        }
    }
}
