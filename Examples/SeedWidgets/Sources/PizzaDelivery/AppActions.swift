// Not in the article: on a phone the app's buttons call these functions. Here they are App
// Intents of the app, which a script performs through the app's IntentHandler (as
// Shortcuts would run them): `glimpse.app.v1.IntentHandler/Perform` with
// `{"intent_type": "StartDeliveryIntent"}`.
import GlimpseKit

struct StartDeliveryIntent: AppIntent {
    static var title: LocalizedStringResource = "Start a pizza delivery"
    func perform() async throws -> some IntentResult {
        startDeliveryPizza()
        return .result()
    }
}

struct UpdateDeliveryIntent: AppIntent {
    static var title: LocalizedStringResource = "Reassign the driver"
    func perform() async throws -> some IntentResult {
        updateDeliveryPizza()
        return .result()
    }
}

struct StopDeliveryIntent: AppIntent {
    static var title: LocalizedStringResource = "End the delivery"
    func perform() async throws -> some IntentResult {
        stopDeliveryPizza()
        return .result()
    }
}

extension Widgets {
    static var intents: [any AppIntent.Type] { [StartDeliveryIntent.self, UpdateDeliveryIntent.self, StopDeliveryIntent.self] }
}
