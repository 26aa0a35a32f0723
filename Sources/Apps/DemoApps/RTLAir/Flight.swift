import GlimpseKit
import Foundation

/// Seed 004's shared models: RTL 001, SFO to JFK, 11:59 PM from Gate M72, and where the
/// passenger is in the three-state flow.
struct Flight: Sendable, Hashable {
    let flightNumber: String
    let origin: String
    let destination: String
    let departureTime: Date
    let gate: String

    /// Flight.mock: today's 23:59 departure (the day of `now`, UTC here).
    static func mock(on now: Date) -> Flight {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let departure = calendar.date(bySettingHour: 23, minute: 59, second: 0, of: now) ?? now
        return Flight(flightNumber: "RTL 001", origin: "SFO", destination: "JFK", departureTime: departure, gate: "M72")
    }
}

enum FlightStatus: String, Codable, Sendable, CaseIterable {
    case notCheckedIn
    case checkedIn
    case gateConfirmed

    var displayLabel: String {
        switch self {
        case .notCheckedIn: "Not Checked In"
        case .checkedIn: "Checked In ✓"
        case .gateConfirmed: "Cleared ⚡️"
        }
    }
}

/// FlightStore: the status in the App Group `group.net.insoc.rtlair` under
/// `flightStatus`. The widget only reads it; the intents write it (declaratively, in the
/// manifest) and reload all timelines, as the article's setter does.
struct FlightStore: Sendable {
    static let appGroup = "group.net.insoc.rtlair"
    static let statusKey = "flightStatus"

    let defaults: any SharedDefaults

    /// Missing, unreadable or unknown: not checked in, as the article's getter falls back.
    func status() async -> FlightStatus {
        await defaults.string(forKey: Self.statusKey, inGroup: Self.appGroup).flatMap(FlightStatus.init(rawValue:))
            ?? .notCheckedIn
    }
}
