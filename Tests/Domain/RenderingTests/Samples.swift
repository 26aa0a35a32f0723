import Foundation
import GlimpseMessages
import Rendering

/// Realistic trees for goldens and pictures: a weather widget, a delivery Live Activity
/// and screens that hold them.
enum Samples {
    static func label(_ symbolName: String, _ title: String) -> View {
        var v = View()
        v.kind = .label(GlimpseWidgetV1.Label(title: text(title), icon: symbol(symbolName)))
        return v
    }

    static func hierarchical(_ level: GlimpseWidgetV1.HierarchicalStyle) -> GlimpseWidgetV1.Modifier.Kind {
        .foregroundStyle(GlimpseWidgetV1.ShapeStyle(kind: .hierarchical(level)))
    }

    static var weather: View {
        var gauge = GlimpseWidgetV1.Gauge()
        gauge.value = 0.6
        gauge.label = text("UV")
        gauge.currentValueLabel = text("6")
        gauge.style = .accessoryLinearCapacity
        var gaugeView = View()
        gaugeView.kind = .gauge(gauge)
        var button = GlimpseWidgetV1.Button()
        button.intent = GlimpseWidgetV1.IntentInvocation(intentType: "RefreshIntent")
        button.label = text("Refresh")
        button.style = .borderedProminent
        var buttonView = View()
        buttonView.kind = .button(button)
        let gradient = GlimpseWidgetV1.LinearGradient(
            stops: [
                .init(
                    color: GlimpseWidgetV1.Color(value: .rgba(.init(red: 0.29, green: 0.56, blue: 0.89, alpha: 1))),
                    location: 0),
                .init(
                    color: GlimpseWidgetV1.Color(value: .rgba(.init(red: 0.13, green: 0.33, blue: 0.69, alpha: 1))),
                    location: 1),
            ],
            startPoint: .init(x: 0, y: 0), endPoint: .init(x: 1, y: 1))
        let white = color(.white)
        let left = vstack(
            [
                label("cloud.sun.fill", "Cupertino").with(font(.headline)),
                text("72°").with(.font(GlimpseWidgetV1.Font(size: 44, weight: .light))),
                text("Partly Cloudy & <breezy>").with(font(.caption), hierarchical(.secondary), .lineLimit(1)),
            ], spacing: 2, h: .leading)
        let right = vstack(
            [
                hstack([text("H:78°"), text("L:61°")], spacing: 6).with(font(.caption)),
                gaugeView.with(frame(width: 110)),
                buttonView.with(font(.caption, weight: .semibold)).id("refresh"),
            ], spacing: 8, h: .trailing)
        return hstack([left, spacer(), right])
            .with(
                .foregroundStyle(white),
                .containerBackground(.init(style: GlimpseWidgetV1.ShapeStyle(kind: .linearGradient(gradient)))))
    }

    static func delivery(now: Date) -> GlimpseWidgetV1.ActivityViews {
        let interval = GlimpseWidgetV1.DateInterval(
            start: timestamp(now.addingTimeInterval(-300)), end: timestamp(now.addingTimeInterval(754)))
        var timer = View()
        timer.kind = .timerText(GlimpseWidgetV1.TimerText(timerInterval: interval, countsDown: true))
        var progress = GlimpseWidgetV1.ProgressView()
        progress.progress = .timerInterval(interval)
        progress.label = text("Out for delivery").with(font(.caption))
        var progressView = View()
        progressView.kind = .progress(progress)
        var island = GlimpseWidgetV1.DynamicIslandViews()
        island.compactLeading = symbol("bicycle").with(.foregroundStyle(color(.orange)))
        island.compactTrailing = timer.with(.monospacedDigit(true), frame(width: 48))
        island.minimal = symbol("bicycle").with(.foregroundStyle(color(.orange)))
        island.expandedLeading = GlimpseWidgetV1.ExpandedRegion(view: label("bicycle", "Pizza").with(font(.headline)))
        island.expandedTrailing = GlimpseWidgetV1.ExpandedRegion(
            view: timer.with(font(.title3), .multilineTextAlignment(.trailing)))
        island.expandedCenter = GlimpseWidgetV1.ExpandedRegion(view: text("Arriving soon").with(font(.subheadline)))
        island.expandedBottom = GlimpseWidgetV1.ExpandedRegion(view: progressView.with(.tint(color(.orange))))
        island.keylineTint = GlimpseWidgetV1.Color(value: .system(.orange))
        var views = GlimpseWidgetV1.ActivityViews()
        views.dynamicIsland = island
        views.lockScreen = hstack([
            vstack([label("bicycle", "Pizza Palace").with(font(.headline)), progressView], spacing: 8, h: .leading),
            timer.with(font(.title2), frame(width: 80)),
        ]).with(
            padding(), .activityBackgroundTint(color(.black)), .foregroundStyle(color(.white)), .tint(color(.orange)))
        return views
    }

    static func screen(now: Date) -> GlimpseGatewayV1.Screen {
        func widget(_ id: UInt64, _ family: GlimpseWidgetV1.WidgetFamily, _ view: View) -> GlimpseGatewayV1.Widget {
            var w = GlimpseGatewayV1.Widget()
            w.placementId = id
            w.bundleId = "com.example.weather"
            w.family = family
            var entry = GlimpseWidgetV1.TimelineEntry()
            entry.view = view
            w.entry = entry
            return w
        }
        var ring = GlimpseWidgetV1.Gauge()
        ring.value = 0.72
        ring.style = .accessoryCircular
        ring.currentValueLabel = text("72°")
        var ringView = View()
        ringView.kind = .gauge(ring)
        var placeholder = widget(3, .systemSmall, text(""))
        placeholder.entry = nil
        var screen = GlimpseGatewayV1.Screen()
        screen.device = "iPhone393x852"
        screen.now = timestamp(now)
        screen.homePages = [
            .init(slots: [
                .init(widgets: [widget(1, .systemMedium, weather)]),
                .init(widgets: [
                    widget(
                        2, .systemSmall,
                        vstack(
                            [text("Steps").with(font(.caption)), text("8,412").with(font(.title, weight: .bold))],
                            h: .leading)), placeholder,
                ]),
                .init(widgets: [placeholder]),
            ])
        ]
        var lock = GlimpseGatewayV1.Screen.LockScreen()
        lock.widgets = [
            widget(10, .accessoryInline, label("cloud.sun.fill", "72° Partly Cloudy")),
            widget(11, .accessoryCircular, ringView),
            widget(
                12, .accessoryRectangular,
                vstack([text("Next: Standup").with(font(.headline)), text("10:30 AM · Room 4")], h: .leading)),
        ]
        var item = GlimpseGatewayV1.ActivityView()
        item.activity = GlimpseActivityV1.Activity(activityId: "pizza", bundleId: "com.example.pizza")
        lock.activities = [item]
        screen.lockScreen = lock
        screen.dynamicIsland = GlimpseGatewayV1.DynamicIsland(mode: .expanded, activityId: "pizza")
        return screen
    }
}
