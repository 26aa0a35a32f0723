import GlimpseKit
import GlimpseMessages

/// Seed 000's FilmPlaybackLiveActivity: `ActivityConfiguration(for: FilmPlaybackAttributes.self)`.
struct FilmPlaybackActivity: LiveActivityConfiguration {
    static let attributesType = "FilmPlaybackAttributes"

    struct Attributes: Codable, Sendable, Hashable {
        var filmTitle: String
        var posterImageName: String
        var totalRuntime: Int  // minutes
    }

    struct ContentState: Codable, Sendable, Hashable {
        var currentScene: String
        var elapsedMinutes: Int
        var isPlaying: Bool
        var chapterProgress: Double  // 0.0–1.0
    }

    typealias Context = WireActivityContext<Attributes, ContentState>

    func views(_ context: Context) -> GlimpseWidgetV1.ActivityViews {
        let url = PixarWidgetView.filmURL(context.attributes.filmTitle)
        var island = GlimpseWidgetV1.DynamicIslandViews()
        island.expandedLeading = .region(
            .image(context.attributes.posterImageName, resizable: true, contentMode: .fill)
                .frame(width: 40, height: 40).clipShape(.circle))
        island.expandedTrailing = .region(
            .vstack(
                alignment: .trailing,
                [
                    .text("\(context.state.elapsedMinutes) min").font(.caption2),
                    playPauseButton(context, .symbol(playPause(context))),
                ]))
        island.expandedBottom = .region(
            .hstack([
                .text(context.attributes.filmTitle).font(.caption).fontWeight(.semibold),
                .text("·"),
                .text(context.state.currentScene).font(.caption).foregroundStyle(.secondary).lineLimit(1),
            ]))
        island.compactLeading = .symbol("film").foregroundStyle(.system(.orange))
        island.compactTrailing = .text("\(context.state.elapsedMinutes)m").font(.caption2).monospacedDigit()
        island.minimal = .symbol("film").foregroundStyle(.system(.orange))
        island.widgetUrl = url
        return GlimpseWidgetV1.ActivityViews(lockScreen: lockScreen(context), dynamicIsland: island, widgetUrl: url)
    }

    func playPause(_ context: Context) -> String { context.state.isPlaying ? "pause.fill" : "play.fill" }

    /// The play/pause symbol as a Button(intent: TogglePlaybackIntent(isPlaying: !isPlaying))
    /// (.plain: it looks like the symbol alone).
    func playPauseButton(_ context: Context, _ symbol: View) -> View {
        .button(intent: TogglePlaybackIntent.invocation(playing: !context.state.isPlaying), style: .plain, symbol)
            .id("playPause")
    }

    /// FilmPlaybackLiveActivityView: the Lock Screen and banner.
    func lockScreen(_ context: Context) -> View {
        .hstack(
            spacing: 12,
            [
                .image(context.attributes.posterImageName, resizable: true, contentMode: .fill)
                    .frame(width: 50, height: 50).clipShape(.roundedRectangle(cornerRadius: 8)),
                .vstack(
                    alignment: .leading, spacing: 4,
                    [
                        .text(context.attributes.filmTitle).font(.headline).lineLimit(1),
                        .text(context.state.currentScene).font(.subheadline).foregroundStyle(.secondary).lineLimit(1),
                        .progress(value: context.state.chapterProgress).tint(.system(.orange)),
                    ]),
                .spacer(),
                playPauseButton(context, .symbol(playPause(context)).font(.title3).foregroundStyle(.primary)),
            ]
        ).padding().activityBackgroundTint(.system(.black, opacity: 0.85))
    }
}
