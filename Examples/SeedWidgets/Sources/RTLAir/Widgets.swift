#if canImport(WidgetKit)
import WidgetKit
import SwiftUI
#else
import Foundation
import GlimpseKit
#endif

@main
struct RideTheLightningAirWidgetBundle: WidgetBundle {
    var body: some Widget {
        MediumWidget()
        LockScreenWidget()
    }
}

struct MediumWidget: Widget {
    let kind = "MediumWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            MediumWidgetView(entry: entry)
                .containerBackground(.black, for: .widget)
        }
        .configurationDisplayName("RTL Flight Status")
        .description("Track your Ride the Lightning Air flight.")
        .supportedFamilies([.systemMedium])
    }
}

struct LockScreenWidget: Widget {
    let kind = "LockScreenWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            LockScreenWidgetView(entry: entry)
                .containerBackground(for: .widget) { }
        }
        .configurationDisplayName("RTL Flight")
        .description("Quick flight status at a glance.")
        .supportedFamilies([.accessoryRectangular])
    }
}
