#if canImport(WidgetKit)
import SwiftUI
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct LockScreenWidgetView: View {
    let entry: FlightEntry

    var body: some View {
        HStack(spacing: 3) {
            Text("⚡️")
            Text(entry.flight.flightNumber)
                .bold()
            Text("·").foregroundStyle(.secondary)
            Text("\(entry.flight.origin)\(entry.flight.destination)")
            Text("·").foregroundStyle(.secondary)
            Text("Gate \(entry.flight.gate)")
            Text("·").foregroundStyle(.secondary)
            Text(entry.status.displayLabel)
                .foregroundStyle(.secondary)
        }
        .font(.caption2)
        .minimumScaleFactor(0.6)
        .lineLimit(1)
    }
}
