import Foundation
import GlimpseKit
import GlimpseMessages

/// The article's lightning yellow.
let lightningYellow = Color.rgb(1.0, 0.84, 0.0)

/// MediumWidgetView: the flight on black, and the button the status calls for — Check In,
/// then Gate M72, then none (the terminal state shows a lightning bolt instead).
enum MediumWidgetView {
    static func body(_ entry: FlightProvider.FlightEntry) -> View {
        let flight = entry.flight
        return .vstack(
            alignment: .leading, spacing: 6,
            [
                .hstack(
                    spacing: 4,
                    [
                        .symbol("bolt.fill"),
                        .text("Ride the Lightning Air").bold(),
                        .spacer(),
                        .text(flight.flightNumber).monospacedDigit(),
                    ]
                ).font(.caption).foregroundColor(lightningYellow),
                .hstack(
                    alignment: .firstTextBaseline,
                    [
                        .text("\(flight.origin) → \(flight.destination)").font(.title2).bold().foregroundColor(.white),
                        .spacer(),
                        .date(flight.departureTime, style: .time).font(.headline).foregroundColor(.white),
                    ]),
                .text("Gate \(flight.gate)").font(.caption).foregroundStyle(.system(.gray)),
                .hstack([
                    .text(entry.status.displayLabel).font(.subheadline).bold().foregroundColor(
                        statusColor(entry.status)),
                    .spacer(),
                    action(entry),
                ]),
            ]
        ).padding()
    }

    static func statusColor(_ status: FlightStatus) -> Color {
        switch status {
        case .notCheckedIn: .system(.gray)
        case .checkedIn: .white
        case .gateConfirmed: lightningYellow
        }
    }

    static func action(_ entry: FlightProvider.FlightEntry) -> View {
        switch entry.status {
        case .notCheckedIn: button("CheckInIntent", symbol: "bolt.fill", title: "Check In").id("checkin")
        case .checkedIn:
            button("ConfirmGateIntent", symbol: "door.left.hand.open", title: "Gate \(entry.flight.gate)").id("gate")
        case .gateConfirmed: .symbol("bolt.fill").font(.title2).foregroundColor(lightningYellow)
        }
    }

    /// `Button(intent:)` with the article's label: symbol and title, caption bold, black on
    /// yellow, in a rounded rectangle, `.buttonStyle(.plain)`.
    static func button(_ intent: String, symbol: String, title: String) -> View {
        .button(
            intent: .init(intent), style: .plain,
            .hstack(spacing: 4, [.symbol(symbol), .text(title)])
                .font(.caption).bold().foregroundColor(.black)
                .padding(.horizontal, 12).padding(.vertical, 8)
                .background(.color(lightningYellow)).clipShape(.roundedRectangle(cornerRadius: 8)))
    }
}

/// LockScreenWidgetView: one line for accessoryRectangular, read-only (Lock Screen widgets
/// take no buttons here, as the article notes).
enum LockScreenWidgetView {
    static func body(_ entry: FlightProvider.FlightEntry) -> View {
        let flight = entry.flight
        let dot: View = .text("·").foregroundStyle(.secondary)
        return .hstack(
            spacing: 3,
            [
                .text("⚡️"),
                .text(flight.flightNumber).bold(),
                dot,
                .text("\(flight.origin) → \(flight.destination)"),
                dot,
                .text("Gate \(flight.gate)"),
                dot,
                .text(entry.status.displayLabel).foregroundStyle(.secondary),
            ]
        ).font(.caption2).minimumScaleFactor(0.6).lineLimit(1)
    }
}
