#if canImport(WidgetKit)
import AppIntents
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct CheckInIntent: AppIntent {
    static var title: LocalizedStringResource = "Check In"

    func perform() async throws -> some IntentResult {
        FlightStore.shared.status = .checkedIn
        return .result()
    }
}
