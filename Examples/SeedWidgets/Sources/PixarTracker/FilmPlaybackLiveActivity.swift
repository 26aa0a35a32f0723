#if canImport(WidgetKit)
import ActivityKit
import SwiftUI
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

@available(iOS 16.2, *)
struct FilmPlaybackLiveActivityView: View {
    let context: ActivityViewContext<FilmPlaybackAttributes>

    var body: some View {
        // This view is used for the Lock Screen presentation
        HStack(spacing: 12) {
            // Static poster image
            Image(context.attributes.posterImageName)
                .resizable()
                .scaledToFill()
                .frame(width: 50, height: 50)
                .clipShape(RoundedRectangle(cornerRadius: 8))

            VStack(alignment: .leading, spacing: 4) {
                Text(context.attributes.filmTitle)
                    .font(.headline)
                    .lineLimit(1)
                Text(context.state.currentScene)
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
                    .lineLimit(1)

                // Chapter progress bar
                ProgressView(value: context.state.chapterProgress)
                    .tint(.orange)
            }

            Spacer()

            // Play/pause indicator
            Image(systemName: context.state.isPlaying ? "pause.fill" : "play.fill")
                .font(.title3)
                .foregroundStyle(.primary)
        }
        .padding()
        .activityBackgroundTint(.black.opacity(0.85))
    }
}

@available(iOS 16.2, *)
struct FilmPlaybackLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: FilmPlaybackAttributes.self) { context in
            // Lock Screen and notification banner UI
            FilmPlaybackLiveActivityView(context: context)
        } dynamicIsland: { context in
            DynamicIsland {
                // Expanded: user long-pressed the island
                DynamicIslandExpandedRegion(.leading) {
                    Image(context.attributes.posterImageName)
                        .resizable()
                        .scaledToFill()
                        .frame(width: 40, height: 40)
                        .clipShape(Circle())
                }
                DynamicIslandExpandedRegion(.trailing) {
                    VStack(alignment: .trailing) {
                        Text("\(context.state.elapsedMinutes) min")
                            .font(.caption2)
                        Image(systemName: context.state.isPlaying ? "pause.fill" : "play.fill")
                    }
                }
                DynamicIslandExpandedRegion(.bottom) {
                    HStack {
                        Text(context.attributes.filmTitle)
                            .font(.caption)
                            .fontWeight(.semibold)
                        Text("·")
                        Text(context.state.currentScene)
                            .font(.caption)
                            .foregroundStyle(.secondary)
                            .lineLimit(1)
                    }
                }
            } compactLeading: {
                // Compact: the left side of the island
                Image(systemName: "film")
                    .foregroundStyle(.orange)
            } compactTrailing: {
                // Compact: the right side of the island
                Text("\(context.state.elapsedMinutes)m")
                    .font(.caption2)
                    .monospacedDigit()
            } minimal: {
                // Minimal: when two activities are competing
                Image(systemName: "film")
                    .foregroundStyle(.orange)
            }
            .widgetURL(URL(string: "pixartracker://film/\(context.attributes.filmTitle)"))
        }
    }
}
