import Foundation

struct Flight {
    let flightNumber: String
    let origin: String
    let destination: String
    let departureTime: Date
    let gate: String

    static let mock: Flight = {
        var components = DateComponents()
        components.hour = 23
        components.minute = 59
        return Flight(
            flightNumber: "RTL 001",
            origin: "SFO",
            destination: "JFK",
            departureTime: Calendar.current.date(from: components) ?? Date(),
            gate: "M72"
        )
    }()
}

enum FlightStatus: String, Codable {
    case notCheckedIn
    case checkedIn
    case gateConfirmed

    var displayLabel: String {
        switch self {
        case .notCheckedIn:  return "Not Checked In"
        case .checkedIn:     return "Checked In ✓"
        case .gateConfirmed: return "Cleared ⚡️"
        }
    }
}
