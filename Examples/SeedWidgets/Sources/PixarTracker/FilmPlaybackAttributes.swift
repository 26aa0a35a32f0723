#if canImport(ActivityKit)
import ActivityKit
#else
import Foundation
import GlimpseKit
#endif

@available(iOS 16.2, *)
struct FilmPlaybackAttributes: ActivityAttributes {
    // ContentState: updated dynamically via Activity.update()
    public struct ContentState: Codable, Hashable {
        var currentScene: String
        var elapsedMinutes: Int
        var isPlaying: Bool
        var chapterProgress: Double // 0.0–1.0
    }

    // Static: set once at activity creation, never changes
    var filmTitle: String
    var posterImageName: String
    var totalRuntime: Int // minutes
}
