import GlimpseKit

/// The play/pause button of the playback Live Activity: a `LiveActivityIntent` whose
/// `perform()` runs in the app and updates the activity it was drawn for, as
/// FilmPlaybackController's `activity.update(...)` would (seed 000 draws the play/pause
/// symbol; the button around it is Glimpse's demo of an interactive Live Activity, spec §3).
struct TogglePlaybackIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Play or Pause"

    @Parameter(title: "Playing") var isPlaying: Bool
    @Parameter(title: "Activity") var activityID: String

    init() {}

    init(isPlaying: Bool, activityID: String) {
        self.isPlaying = isPlaying
        self.activityID = activityID
    }

    func perform() async throws -> some IntentResult {
        guard let activity = Activity<FilmPlaybackAttributes>.activities.first(where: { $0.id == activityID }) else {
            throw PixarError("no playback activity \"\(activityID)\"")
        }
        var content = activity.content
        content.state.isPlaying = isPlaying
        await activity.update(content)
        return .result()
    }
}
