#if canImport(ActivityKit)
import ActivityKit
#else
import Foundation
import GlimpseKit
#endif

@available(iOS 16.2, *)
final class FilmPlaybackController {

    private var currentActivity: Activity<FilmPlaybackAttributes>?

    func startActivity(for film: PixarFilm) {
        // Check that Live Activities are enabled on this device
        guard ActivityAuthorizationInfo().areActivitiesEnabled else {
            print("Live Activities not available")
            return
        }

        let attributes = FilmPlaybackAttributes(
            filmTitle: film.title,
            posterImageName: film.posterName,
            totalRuntime: film.runtime
        )

        let initialState = FilmPlaybackAttributes.ContentState(
            currentScene: "Opening Credits",
            elapsedMinutes: 0,
            isPlaying: true,
            chapterProgress: 0.0
        )

        do {
            currentActivity = try Activity.request(
                attributes: attributes,
                content: .init(state: initialState, staleDate: nil),
                pushType: nil // Use .token for push-based updates
            )
            print("Started Live Activity: \(currentActivity?.id ?? "unknown")")
        } catch {
            print("Failed to start Live Activity: \(error)")
        }
    }

    func updateActivity(scene: String, elapsed: Int, progress: Double) async {
        let updatedState = FilmPlaybackAttributes.ContentState(
            currentScene: scene,
            elapsedMinutes: elapsed,
            isPlaying: true,
            chapterProgress: progress
        )

        await currentActivity?.update(
            ActivityContent(state: updatedState, staleDate: Date.now.addingTimeInterval(300))
        )
    }

    func endActivity() async {
        await currentActivity?.end(nil, dismissalPolicy: .immediate)
        currentActivity = nil
    }
}
