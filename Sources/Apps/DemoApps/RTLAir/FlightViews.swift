import Foundation
import GlimpseKit

/// The article's lightning yellow.
let lightningYellow = Color(red: 1.0, green: 0.84, blue: 0.0)

/// MediumWidgetView: the flight on black, and the button the status calls for — Check In,
/// then Gate M72, then none (the terminal state shows a lightning bolt instead).
struct MediumWidgetView: View {
    let entry: FlightProvider.FlightEntry

    var body: some View {
        let flight = entry.flight
        VStack(alignment: .leading, spacing: 6) {
            HStack(spacing: 4) {
                Image(systemName: "bolt.fill")
                Text("Ride the Lightning Air").bold()
                Spacer()
                Text(flight.flightNumber).monospacedDigit()
            }
            .font(.caption).foregroundColor(lightningYellow)
            HStack(alignment: .firstTextBaseline) {
                Text("\(flight.origin) → \(flight.destination)").font(.title2).bold().foregroundColor(.white)
                Spacer()
                Text(flight.departureTime, style: .time).font(.headline).foregroundColor(.white)
            }
            Text("Gate \(flight.gate)").font(.caption).foregroundStyle(.gray)
            HStack {
                Text(entry.status.displayLabel).font(.subheadline).bold().foregroundColor(statusColor)
                Spacer()
                switch entry.status {
                case .notCheckedIn:
                    FlightButton(intent: CheckInIntent(), symbol: "bolt.fill", title: "Check In").id("checkin")
                case .checkedIn:
                    FlightButton(
                        intent: ConfirmGateIntent(), symbol: "door.left.hand.open", title: "Gate \(flight.gate)"
                    )
                    .id("gate")
                case .gateConfirmed:
                    Image(systemName: "bolt.fill").font(.title2).foregroundColor(lightningYellow)
                }
            }
        }
        .padding()
    }

    var statusColor: Color {
        switch entry.status {
        case .notCheckedIn: .gray
        case .checkedIn: .white
        case .gateConfirmed: lightningYellow
        }
    }
}

/// `Button(intent:)` with the article's label: symbol and title, caption bold, black on
/// yellow, in a rounded rectangle, `.buttonStyle(.plain)`.
struct FlightButton<Intent: AppIntent>: View {
    let intent: Intent
    let symbol: String
    let title: String

    var body: some View {
        Button(intent: intent) {
            HStack(spacing: 4) {
                Image(systemName: symbol)
                Text(title)
            }
            .font(.caption).bold().foregroundColor(.black)
            .padding(.horizontal, 12).padding(.vertical, 8)
            .background(lightningYellow).clipShape(RoundedRectangle(cornerRadius: 8))
        }
        .buttonStyle(.plain)
    }
}

/// LockScreenWidgetView: one line for accessoryRectangular, read-only (Lock Screen widgets
/// take no buttons here, as the article notes).
struct LockScreenWidgetView: View {
    let entry: FlightProvider.FlightEntry

    var body: some View {
        let flight = entry.flight
        HStack(spacing: 3) {
            Text("⚡️")
            Text(flight.flightNumber).bold()
            Text("·").foregroundStyle(.secondary)
            Text("\(flight.origin) → \(flight.destination)")
            Text("·").foregroundStyle(.secondary)
            Text("Gate \(flight.gate)")
            Text("·").foregroundStyle(.secondary)
            Text(entry.status.displayLabel).foregroundStyle(.secondary)
        }
        .font(.caption2).minimumScaleFactor(0.6).lineLimit(1)
    }
}

/// The article's CheckInIntent and ConfirmGateIntent. This app's manifest declares what they
/// do (Demos/rtlair/app.json: set `flightStatus` in the App Group, reload all timelines), so
/// the gateway performs them itself and the app serves no IntentHandler: a tap works while the
/// app is down. `perform()` is never called here; if it were, it says so.
struct CheckInIntent: AppIntent {
    static let title: LocalizedStringResource = "Check In"
    func perform() async throws -> IntentResultValue { throw DeclaredIntent(type: "CheckInIntent") }
}

struct ConfirmGateIntent: AppIntent {
    static let title: LocalizedStringResource = "Confirm Gate"
    func perform() async throws -> IntentResultValue { throw DeclaredIntent(type: "ConfirmGateIntent") }
}

struct DeclaredIntent: Error, CustomStringConvertible {
    let type: String
    var description: String { "\(type) is performed by the gateway from the manifest's store action" }
}
