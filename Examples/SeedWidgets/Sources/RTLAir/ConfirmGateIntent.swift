#if canImport(WidgetKit)
import AppIntents
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct ConfirmGateIntent: AppIntent {
    static var title: LocalizedStringResource = "Confirm Gate"

    func perform() async throws -> some IntentResult {
        FlightStore.shared.status = .gateConfirmed
        return .result()
    }
}
