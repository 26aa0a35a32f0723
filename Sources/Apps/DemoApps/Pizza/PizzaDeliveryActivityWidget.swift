import Foundation
import GlimpseKit
import GlimpseMessages

extension PizzaDeliveryAttributes: GlimpseKit.ActivityAttributes {}

/// Seed 002's PizzaDeliveryActivityWidget in GlimpseKit's SwiftUI-shaped views: the Lock
/// Screen view (the delivery bar between the truck and the house, the pizzas, the paid
/// footer) and the Dynamic Island — bag and count, a countdown, the driver, "Contact driver"
/// — with `.keylineTint(.accentColor)`.
struct PizzaDeliveryActivityWidget: GlimpseKit.Widget {
    typealias Context = ActivityViewContext<PizzaDeliveryAttributes>

    static let url = "pizzadelivery://order"

    var body: some WidgetConfiguration { configuration }

    var configuration: ActivityConfiguration<PizzaDeliveryAttributes> {
        ActivityConfiguration(for: PizzaDeliveryAttributes.self) { context in
            DeliveryLockScreenView(context: context).widgetURL(URL(string: Self.url))
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Label("\(context.attributes.numberOfPizzas) Pizzas", systemImage: "bag").font(.title2)
                }
                DynamicIslandExpandedRegion(.trailing) {
                    Label {
                        Countdown(context: context).multilineTextAlignment(.trailing).frame(width: 50)
                            .monospacedDigit().font(.caption2)
                    } icon: {
                        Image(systemName: "timer")
                    }
                    .font(.title2)
                }
                DynamicIslandExpandedRegion(.center) {
                    Text("\(context.state.driverName) is on his way!").lineLimit(1).font(.caption)
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Link(destination: Self.driverURL(context.state.driverName)) {
                        Label("Contact driver", systemImage: "phone")
                    }
                    .id("contactDriver")
                }
            } compactLeading: {
                Label {
                    Text("\(context.attributes.numberOfPizzas) Pizzas")
                } icon: {
                    Image(systemName: "bag")
                }
                .font(.caption2)
            } compactTrailing: {
                Countdown(context: context).multilineTextAlignment(.center).frame(width: 40).font(.caption2)
            } minimal: {
                VStack(alignment: .center) {
                    Image(systemName: "timer")
                    Countdown(context: context).multilineTextAlignment(.center).monospacedDigit().font(.caption2)
                }
            }
            .keylineTint(.accentColor)
            .widgetURL(URL(string: Self.url))
        }
    }

    static func driverURL(_ driver: String) -> URL {
        URL(string: "pizzadelivery://driver/\(driver)")
            ?? URL(
                string: "pizzadelivery://driver/"
                    + (driver.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""))
            ?? URL(string: url)!
    }

    /// The views of one request, as glimpse.app.v1.ActivityConfiguration answers it.
    func views(for request: GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews {
        try configuration.views(for: request)
    }
}

/// Text(timerInterval: estimatedDeliveryTime, countsDown: true); "Delivered" at the end.
struct Countdown: GlimpseKit.View {
    let context: PizzaDeliveryActivityWidget.Context

    var body: some GlimpseKit.View {
        if context.state.status == .delivered {
            Text("Delivered")
        } else {
            Text(timerInterval: context.state.estimatedDeliveryTime, countsDown: true)
        }
    }
}

struct DeliveryLockScreenView: GlimpseKit.View {
    let context: PizzaDeliveryActivityWidget.Context

    var dashed: some GlimpseKit.View {
        RoundedRectangle(cornerRadius: 5).stroke(.secondary, lineWidth: 1).frame(height: 6)
    }

    var body: some GlimpseKit.View {
        let state = context.state
        VStack(alignment: .leading) {
            HStack {
                Image(state.driverName).resizable().aspectRatio(contentMode: .fill).frame(width: 36, height: 36)
                    .clipShape(Circle())
                VStack(alignment: .leading) {
                    Text(state.status.headline(driver: state.driverName)).font(.headline)
                    HStack {
                        Capsule().fill(.blue).frame(height: 6).cornerRadius(5)
                        Image(systemName: state.status.symbol).foregroundColor(.blue)
                        dashed
                        Countdown(context: context)
                        dashed
                        Image(systemName: "house.fill").foregroundColor(.green)
                    }
                }
                .padding(.trailing, 25)
                Text("\(context.attributes.numberOfPizzas) 🍕").font(.title).bold()
            }
            .padding(5)
            Text("You've already paid: \(context.attributes.totalAmount) + $9.9 Delivery Fee 💸").font(.caption)
                .foregroundStyle(.secondary)
            if context.isStale {
                Text("Waiting for the latest from \(state.driverName)…").font(.caption2).foregroundStyle(.secondary)
            }
        }
        .padding(15)
    }
}
