#if canImport(WidgetKit)
import Foundation
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

final class FlightStore {
    static let shared = FlightStore()
    private init() {}

    private let defaults = UserDefaults(suiteName: "group.net.insoc.rtlair")!
    private let statusKey = "flightStatus"

    var status: FlightStatus {
        get {
            let raw = defaults.string(forKey: statusKey) ?? FlightStatus.notCheckedIn.rawValue
            return FlightStatus(rawValue: raw) ?? .notCheckedIn
        }
        set {
            defaults.set(newValue.rawValue, forKey: statusKey)
            WidgetCenter.shared.reloadAllTimelines()
        }
    }
}
