import Foundation
import GlimpseKit
import GlimpseMessages

/// Seed 000's FilmPlaybackAttributes: the film, and how far playback is.
struct FilmPlaybackAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var currentScene: String
        var elapsedMinutes: Int
        var isPlaying: Bool
        var chapterProgress: Double  // 0.0–1.0
    }

    var filmTitle: String
    var posterImageName: String
    var totalRuntime: Int  // minutes
}

/// Seed 000's FilmPlaybackLiveActivity: `ActivityConfiguration(for: FilmPlaybackAttributes.self)`,
/// the Lock Screen view and the Dynamic Island (poster, minutes and play/pause, the scene).
struct FilmPlaybackLiveActivity: Widget {
    typealias Context = ActivityViewContext<FilmPlaybackAttributes>

    var body: some WidgetConfiguration { configuration }

    var configuration: ActivityConfiguration<FilmPlaybackAttributes> {
        ActivityConfiguration(for: FilmPlaybackAttributes.self) { context in
            FilmPlaybackLiveActivityView(context: context).widgetURL(Self.url(context))
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Image(context.attributes.posterImageName).resizable().aspectRatio(contentMode: .fill)
                        .frame(width: 40, height: 40).clipShape(Circle())
                }
                DynamicIslandExpandedRegion(.trailing) {
                    VStack(alignment: .trailing) {
                        Text("\(context.state.elapsedMinutes) min").font(.caption2)
                        PlayPauseButton(context: context, label: Image(systemName: context.playPauseSymbol))
                    }
                }
                DynamicIslandExpandedRegion(.bottom) {
                    HStack {
                        Text(context.attributes.filmTitle).font(.caption).fontWeight(.semibold)
                        Text("·")
                        Text(context.state.currentScene).font(.caption).foregroundStyle(.secondary).lineLimit(1)
                    }
                }
            } compactLeading: {
                Image(systemName: "film").foregroundStyle(.orange)
            } compactTrailing: {
                Text("\(context.state.elapsedMinutes)m").font(.caption2).monospacedDigit()
            } minimal: {
                Image(systemName: "film").foregroundStyle(.orange)
            }
            .widgetURL(Self.url(context))
        }
    }

    /// The views of one request, as glimpse.app.v1.ActivityConfiguration answers it.
    func views(for request: GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews {
        try configuration.views(for: request)
    }

    static func url(_ context: Context) -> URL? {
        URL(string: FilmWidgetEntryView.filmURL(context.attributes.filmTitle))
    }
}

/// FilmPlaybackLiveActivityView: the Lock Screen and banner.
struct FilmPlaybackLiveActivityView: View {
    let context: FilmPlaybackLiveActivity.Context

    var body: some View {
        HStack(spacing: 12) {
            Image(context.attributes.posterImageName).resizable().aspectRatio(contentMode: .fill)
                .frame(width: 50, height: 50).clipShape(RoundedRectangle(cornerRadius: 8))
            VStack(alignment: .leading, spacing: 4) {
                Text(context.attributes.filmTitle).font(.headline).lineLimit(1)
                Text(context.state.currentScene).font(.subheadline).foregroundStyle(.secondary).lineLimit(1)
                ProgressView(value: context.state.chapterProgress).tint(.orange)
            }
            Spacer()
            PlayPauseButton(
                context: context,
                label: Image(systemName: context.playPauseSymbol).font(.title3).foregroundStyle(.primary))
        }
        .padding()
        .activityBackgroundTint(Color.black.opacity(0.85))
    }
}

/// The play/pause symbol as `Button(intent: TogglePlaybackIntent(…))` asking for the other
/// state, `.plain` (it looks like the symbol alone).
struct PlayPauseButton<Content: View>: View {
    let context: FilmPlaybackLiveActivity.Context
    let label: Content

    var body: some View {
        Button(intent: TogglePlaybackIntent(isPlaying: !context.state.isPlaying, activityID: context.activityID)) {
            label
        }
        .buttonStyle(.plain)
        .id("playPause")
    }
}

extension ActivityViewContext<FilmPlaybackAttributes> {
    var playPauseSymbol: String { state.isPlaying ? "pause.fill" : "play.fill" }
}
