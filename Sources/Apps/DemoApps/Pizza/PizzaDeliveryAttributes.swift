import Foundation

/// Seed 002's PizzaDeliveryAttributes: static order data, and the content state a push
/// server moves along. Dates travel as JSONEncoder writes them by default — seconds since
/// 2001-01-01 — and `estimatedDeliveryTime` is a `ClosedRange<Date>` (iOS 16.1), which
/// Codable writes as `[lower, upper]`.
struct PizzaDeliveryAttributes: Codable, Sendable, Hashable {
    static let typeName = "PizzaDeliveryAttributes"

    var numberOfPizzas: Int
    var totalAmount: String

    enum DeliveryStatus: String, Codable, Sendable, CaseIterable {
        case preparing, baking, onTheWay, delivered
    }

    struct ContentState: Codable, Sendable, Hashable {
        var driverName: String
        var estimatedDeliveryTime: ClosedRange<Date>
        /// Where the order is; absent in the article's original two-field state (then: on
        /// the way), so its pushes still decode.
        var status: DeliveryStatus

        init(driverName: String, estimatedDeliveryTime: ClosedRange<Date>, status: DeliveryStatus = .onTheWay) {
            self.driverName = driverName
            self.estimatedDeliveryTime = estimatedDeliveryTime
            self.status = status
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            driverName = try container.decode(String.self, forKey: .driverName)
            estimatedDeliveryTime = try container.decode(ClosedRange<Date>.self, forKey: .estimatedDeliveryTime)
            status = try container.decodeIfPresent(DeliveryStatus.self, forKey: .status) ?? .onTheWay
        }
    }
}

extension PizzaDeliveryAttributes.DeliveryStatus {
    /// The Lock Screen's headline for a driver in this status.
    func headline(driver: String) -> String {
        switch self {
        case .preparing: "\(driver) is picking up your order"
        case .baking: "Your pizza is in the oven"
        case .onTheWay: "\(driver) is on the way!"
        case .delivered: "Delivered. Enjoy! 🍕"
        }
    }

    /// The truck's SF Symbol along the delivery bar.
    var symbol: String {
        switch self {
        case .preparing, .baking: "flame.fill"
        case .onTheWay: "box.truck.badge.clock.fill"
        case .delivered: "checkmark.circle.fill"
        }
    }
}
