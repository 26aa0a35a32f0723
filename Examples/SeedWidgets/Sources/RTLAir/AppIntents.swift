// Not in the article: the intents this process performs, listed for the manifest. Its
// `manifest` command finds the intents the placeholders' buttons name (CheckInIntent);
// ConfirmGateIntent shows only once checked in, so it is named here. On iOS the App Intents
// metadata Xcode extracts at build time lists them.
import GlimpseKit

extension RideTheLightningAirWidgetBundle {
    static var intents: [any AppIntent.Type] { [CheckInIntent.self, ConfirmGateIntent.self] }
}
