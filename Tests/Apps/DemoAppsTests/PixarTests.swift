@testable import DemoApps
import GlimpseKit
import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Testing

let start = Date(timeIntervalSince1970: 1_767_258_000)  // 2026-01-01T09:00:00Z, the stack's manual start

@Suite struct PixarTests {
    let store = FilmStore()
    var widget: PixarWidget { PixarWidget(store: store) }

    @Test func theTimelineIsFiveEntriesFifteenMinutesApartAtEnd() async {
        let timeline = await widget.timeline(kind: PixarWidget.kind, in: .family(.systemSmall), now: start)
        #expect(
            timeline.entries.map { $0.date?.seconds }
                == [0, 15, 30, 45, 60].map { Int64(start.timeIntervalSince1970) + $0 * 60 })
        #expect(timeline.reloadPolicy == .atEnd)
        // The film keeps playing: each entry shows more of it watched.
        #expect(
            timeline.entries.map { $0.view?.texts ?? [] } == [
                ["Coco", "42% watched"], ["Coco", "56% watched"], ["Coco", "70% watched"], ["Coco", "84% watched"],
                ["Coco", "99% watched"],
            ])
        #expect(timeline.entries[0].widgetUrl == "pixartracker://film/Coco")
    }

    @Test(arguments: [
        GlimpseWidgetV1.WidgetFamily.systemSmall, .systemMedium, .systemLarge, .accessoryCircular,
        .accessoryRectangular,
    ])
    func everyFamilyHasItsView(family: GlimpseWidgetV1.WidgetFamily) async throws {
        let entry = try #require(
            await widget.timeline(kind: PixarWidget.kind, in: .family(family), now: start).entries.first)
        let view = try #require(entry.view)
        #expect(view.hasContainerBackground)
        #expect(view.all.count > 2)
        switch family {
        case .systemMedium:
            #expect(view.texts == ["Coco", "42% complete"])
            #expect(view.buttonIntents == ["MarkFilmWatchedIntent"])
            #expect(
                view.view(id: "markWatched")?.all.contains {
                    $0.kind == .symbol(.init(systemName: "checkmark.circle.fill"))
                } == true)
        case .systemLarge:
            #expect(view.images == ["coco-poster"])
            #expect(view.buttonIntents == ["MarkFilmWatchedIntent"])
        case .accessoryCircular:
            #expect(
                view.all.contains {
                    if case .gauge(let gauge)? = $0.kind {
                        gauge.value == 0.42 && gauge.style == .accessoryCircularCapacity
                    } else {
                        false
                    }
                })
        default:
            #expect(view.texts.contains { $0.hasPrefix("42%") })
        }
    }

    @Test func thePlaceholderIsTheArticlesSample() {
        let entry = widget.placeholder(kind: PixarWidget.kind, in: .family(.systemSmall), now: start)
        #expect(entry.view?.texts == ["Coco", "42% watched"])
    }

    @Test func markingTheFilmWatchedChangesTheNextTimeline() async throws {
        var request = GlimpseAppV1.PerformRequest(intentType: "MarkFilmWatchedIntent")
        request.parameters = [
            "filmID": .init(kind: .stringValue("coco")), "filmTitle": .init(kind: .stringValue("Coco")),
        ]
        let answer = try await perform(request)
        guard case .succeeded? = answer.outcome else { Issue.record("\(answer)"); return }
        let next = await widget.timeline(kind: PixarWidget.kind, in: .family(.systemMedium), now: start)
        #expect(next.entries.first?.view?.texts == ["Up", "0% complete"])
        let buttons =
            next.entries.first?.view?.all.compactMap { view -> GlimpseWidgetV1.Button? in
                if case .button(let b)? = view.kind { b } else { nil }
            } ?? []
        let button = try #require(buttons.first)
        #expect(button.intent?.parameters["filmID"] == .init(kind: .stringValue("up")))
    }

    @Test func anUnknownFilmFailsThePerformWithoutChangingAnything() async throws {
        var request = GlimpseAppV1.PerformRequest(intentType: "MarkFilmWatchedIntent")
        request.parameters = [
            "filmID": .init(kind: .stringValue("cars-4")), "filmTitle": .init(kind: .stringValue("Cars 4")),
        ]
        let answer = try await perform(request)
        #expect(answer.outcome == .failed(.init(message: #"MarkFilmWatchedIntent: no film "cars-4""#)))
        #expect(store.current().film?.id == "coco")
    }

    @Test func playPauseWithoutItsActivityOrOfAnUnknownOneFailsWithAReason() async throws {
        var request = GlimpseAppV1.PerformRequest(intentType: "TogglePlaybackIntent")
        request.parameters = ["isPlaying": .init(kind: .boolValue(false))]
        guard case .failed(let noActivity)? = try await perform(request).outcome else {
            Issue.record("performed"); return
        }
        #expect(noActivity.message == "TogglePlaybackIntent: @Parameter activityID has no value")
        request.parameters["activityID"] = .init(kind: .boolValue(true))
        guard case .failed(let illTyped)? = try await perform(request).outcome else {
            Issue.record("performed"); return
        }
        #expect(illTyped.message == "TogglePlaybackIntent: @Parameter activityID is not a VALUE_TYPE_STRING")
        request.parameters["activityID"] = .init(kind: .stringValue("A1"))
        request.activityId = "A1"
        request.attributesType = "FilmPlaybackAttributes"
        guard case .failed(let unknown)? = try await perform(request).outcome else {
            Issue.record("performed"); return
        }
        #expect(unknown.message == #"TogglePlaybackIntent: no playback activity "A1""#)
        request.intentType = "RewindIntent"
        await #expect(throws: RPCError.self) { try await perform(request) }
    }

    @Test func watchingEveryFilmLeavesNoneSelected() async {
        for film in PixarFilm.catalog { store.markWatched(id: film.id) }
        let timeline = await widget.timeline(kind: PixarWidget.kind, in: .family(.systemSmall), now: start)
        #expect(timeline.entries.first?.view?.texts == ["No film selected"])
    }

    @Test func thePlaybackLiveActivityHasEveryDynamicIslandView() throws {
        var request = GlimpseAppV1.ActivityViewsRequest(activityId: "A1", attributesType: "FilmPlaybackAttributes")
        request.attributesJson = #"{"filmTitle":"Coco","posterImageName":"coco-poster","totalRuntime":105}"#
        request.stateJson =
            #"{"currentScene":"Land of the Dead","elapsedMinutes":48,"isPlaying":true,"chapterProgress":0.3}"#
        let views = try FilmPlaybackLiveActivity().views(for: request)
        #expect(views.lockScreen?.texts == ["Coco", "Land of the Dead"])
        #expect(views.lockScreen?.symbols == ["pause.fill"])
        // The symbol is a Button: a tap asks for the other state (a LiveActivityIntent).
        let buttons =
            views.lockScreen?.all.compactMap { view -> GlimpseWidgetV1.Button? in
                if case .button(let b)? = view.kind { b } else { nil }
            } ?? []
        #expect(
            buttons.map(\.intent) == [
                GlimpseWidgetV1.IntentInvocation(
                    intentType: "TogglePlaybackIntent",
                    parameters: [
                        "isPlaying": .init(kind: .boolValue(false)), "activityID": .init(kind: .stringValue("A1")),
                    ])
            ])
        let island = try #require(views.dynamicIsland)
        #expect(island.expandedLeading?.view?.images == ["coco-poster"])
        #expect(island.expandedTrailing?.view?.texts == ["48 min"])
        #expect(island.expandedBottom?.view?.texts == ["Coco", "·", "Land of the Dead"])
        #expect(island.compactLeading?.symbols == ["film"])
        #expect(island.compactTrailing?.texts == ["48m"])
        #expect(island.minimal?.symbols == ["film"])
        #expect(island.widgetUrl == "pixartracker://film/Coco")
    }
}

extension PixarTests {
    /// A tap's perform, through the handler's generated client over the in-process transport.
    func perform(_ request: GlimpseAppV1.PerformRequest) async throws -> GlimpseAppV1.PerformResponse {
        let handler = PixarIntentHandler(store: store)
        return try await withServices([handler]) { client in
            try await GlimpseAppV1.IntentHandler.Client(wrapping: client).perform(ClientRequest(message: request))
                .message
        }
    }
}
