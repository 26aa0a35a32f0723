// Not given whole in the article: its fragments (the Check In button, the switch on
// entry.status, `.containerBackground(.black, for: .widget)`) put together here, with the
// flight's lines above them.
#if canImport(WidgetKit)
import SwiftUI
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

let yellow = Color(red: 1.0, green: 0.84, blue: 0.0)

struct MediumWidgetView: View {
    let entry: FlightEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack(spacing: 4) {
                Image(systemName: "bolt.fill")
                Text("Ride the Lightning Air").bold()
                Spacer()
                Text(entry.flight.flightNumber)
            }
            .font(.caption)
            .foregroundStyle(yellow)
            HStack {
                Text("\(entry.flight.origin) → \(entry.flight.destination)").font(.title2).bold()
                Spacer()
                Text(entry.flight.departureTime, style: .time).font(.headline)
            }
            .foregroundStyle(.white)
            HStack {
                Text(entry.status.displayLabel).font(.subheadline).bold().foregroundStyle(.white)
                Spacer()
                switch entry.status {
                case .notCheckedIn:
                    FlightButton(intent: CheckInIntent(), symbol: "bolt.fill", title: "Check In")
                        .id("checkin")
                case .checkedIn:
                    FlightButton(intent: ConfirmGateIntent(), symbol: "door.left.hand.open", title: "Gate \(entry.flight.gate)")
                        .id("gate")
                case .gateConfirmed:
                    Image(systemName: "bolt.fill").font(.title2).foregroundStyle(yellow)
                }
            }
        }
        .padding()
    }
}

/// The article's Check In button (`Button(intent: CheckInIntent()) { … }`), for the gate
/// too: the symbol and the title, black on yellow, in a rounded rectangle.
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
            .font(.caption).bold()
            .foregroundStyle(.black)
            .padding(.horizontal, 12)
            .padding(.vertical, 8)
            .background(yellow)
            .clipShape(RoundedRectangle(cornerRadius: 8))
        }
        .buttonStyle(.plain)
    }
}
