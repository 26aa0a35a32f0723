import Foundation
import GlimpseKit
import GlimpseMessages

/// Seed 002's PizzaDeliveryActivityWidget: the Lock Screen view (the delivery bar between
/// the truck and the house, the pizzas, the paid footer) and the Dynamic Island — bag and
/// count, a countdown, the driver, "Contact driver" — with `.keylineTint(.accentColor)`.
struct PizzaDeliveryActivityWidget: LiveActivityConfiguration {
    typealias Attributes = PizzaDeliveryAttributes
    typealias ContentState = PizzaDeliveryAttributes.ContentState
    typealias Context = WireActivityContext<Attributes, ContentState>

    static let attributesType = PizzaDeliveryAttributes.typeName
    static let url = "pizzadelivery://order"

    func views(_ context: Context) -> GlimpseWidgetV1.ActivityViews {
        var island = GlimpseWidgetV1.DynamicIslandViews()
        island.expandedLeading = .region(
            .label("\(context.attributes.numberOfPizzas) Pizzas", systemImage: "bag").font(.title2))
        island.expandedTrailing = .region(
            .label(
                countdown(context).multilineTextAlignment(.trailing).frame(width: 50).monospacedDigit().font(.caption2),
                icon: .symbol("timer")
            ).font(.title2))
        island.expandedCenter = .region(.text("\(context.state.driverName) is on his way!").lineLimit(1).font(.caption))
        island.expandedBottom = .region(
            .link("pizzadelivery://driver/\(context.state.driverName)", .label("Contact driver", systemImage: "phone"))
                .id("contactDriver"))
        island.compactLeading = .label(.text("\(context.attributes.numberOfPizzas) Pizzas"), icon: .symbol("bag")).font(
            .caption2)
        island.compactTrailing = countdown(context).multilineTextAlignment(.center).frame(width: 40).font(.caption2)
        island.minimal = .vstack(
            alignment: .center,
            [
                .symbol("timer"),
                countdown(context).multilineTextAlignment(.center).monospacedDigit().font(.caption2),
            ])
        island.keylineTint = .system(.accentColor)
        island.widgetUrl = Self.url
        return GlimpseWidgetV1.ActivityViews(
            lockScreen: lockScreen(context), dynamicIsland: island, widgetUrl: Self.url)
    }

    /// Text(timerInterval: estimatedDeliveryTime, countsDown: true); "Delivered" at the end.
    func countdown(_ context: Context) -> View {
        context.state.status == .delivered ? .text("Delivered") : .timer(context.state.estimatedDeliveryTime)
    }

    func lockScreen(_ context: Context) -> View {
        let state = context.state
        let dashed: View = .shape(.roundedRectangle(cornerRadius: 5), fill: .secondary, strokeWidth: 1).frame(height: 6)
        var footer: [View] = [
            .text("You've already paid: \(context.attributes.totalAmount) + $9.9 Delivery Fee 💸").font(.caption)
                .foregroundStyle(.secondary)
        ]
        if context.isStale {
            footer.append(
                .text("Waiting for the latest from \(state.driverName)…").font(.caption2).foregroundStyle(.secondary))
        }
        return .vstack(
            alignment: .leading,
            [
                .hstack([
                    .image(state.driverName, resizable: true, contentMode: .fill).frame(width: 36, height: 36)
                        .clipShape(.circle),
                    .vstack(
                        alignment: .leading,
                        [
                            .text(state.status.headline(driver: state.driverName)).font(.headline),
                            .hstack([
                                .shape(.capsule, fill: .system(.blue)).frame(height: 6).cornerRadius(5),
                                .symbol(state.status.symbol).foregroundColor(.system(.blue)),
                                dashed,
                                countdown(context),
                                dashed,
                                .symbol("house.fill").foregroundColor(.system(.green)),
                            ]),
                        ]
                    ).padding(.trailing, 25),
                    .text("\(context.attributes.numberOfPizzas) 🍕").font(.title).bold(),
                ]).padding(5)
            ] + footer
        ).padding(15)
    }
}
