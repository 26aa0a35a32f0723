import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Kinds and placements")
struct PlacementTests {
    @Test("\"A placement in an unsupported family is refused with a clear error\"")
    func unsupportedFamilyRefused() throws {
        let h = try Fixture.harness(placements: 0)
        let placement = Placement(id: 9, app: Fixture.app, kind: Fixture.kind, family: .systemLarge)
        #expect(
            throws: PlacementError.unsupportedFamily(
                kind: Fixture.kind, family: .systemLarge, supported: [.systemSmall, .systemMedium])
        ) { try h.scheduler.place(placement) }
        let message = PlacementError.unsupportedFamily(
            kind: Fixture.kind, family: .systemLarge, supported: [.systemSmall, .systemMedium]
        ).description
        #expect(message == "kind Widget does not support systemLarge; supported: systemMedium, systemSmall")
        #expect(h.scheduler.placementCount == 0)
    }

    @Test("accessory families go on the Lock Screen, system families on the Home Screen")
    func familyMustFitScreen() throws {
        let h = Harness()
        try h.scheduler.install(
            app: Fixture.app, kinds: [Fixture.widget(families: [.systemSmall, .accessoryCircular])])
        #expect(throws: PlacementError.familyNotOnScreen(family: .accessoryCircular, screen: .homeScreen)) {
            try h.scheduler.place(
                Placement(id: 1, app: Fixture.app, kind: Fixture.kind, family: .accessoryCircular, screen: .homeScreen))
        }
        let placed = try h.scheduler.place(
            Placement(id: 2, app: Fixture.app, kind: Fixture.kind, family: .accessoryCircular))
        #expect(placed.contains(.entryChanged(2, nil)))
        #expect(h.scheduler.placement(2)?.screen == .lockScreen)
    }

    @Test("unknown apps, unknown kinds and duplicate ids are refused")
    func unknownsRefused() throws {
        let h = try Fixture.harness(placements: 1)
        #expect(throws: PlacementError.unknownApp("com.nope")) {
            try h.scheduler.place(Placement(id: 5, app: "com.nope", kind: Fixture.kind, family: .systemSmall))
        }
        #expect(throws: PlacementError.unknownKind(app: Fixture.app, kind: "Nope")) {
            try h.scheduler.place(Placement(id: 5, app: Fixture.app, kind: "Nope", family: .systemSmall))
        }
        #expect(throws: PlacementError.duplicatePlacement(1)) {
            try h.scheduler.place(Placement(id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemSmall))
        }
        #expect(throws: PlacementError.appAlreadyInstalled(Fixture.app)) {
            try h.scheduler.install(app: Fixture.app, kinds: [])
        }
    }

    @Test("configuration values must be the kind's parameters, with their types; unset ones take defaults")
    func configurationValidated() throws {
        let h = Harness()
        let parameters = [
            ConfigurationParameter(name: "watchlist", type: .string, defaultValue: .string("Favorites")),
            ConfigurationParameter(name: "count", type: .int),
        ]
        try h.scheduler.install(app: Fixture.app, kinds: [Fixture.widget(parameters: parameters)])
        #expect(throws: PlacementError.unknownParameter(kind: Fixture.kind, name: "city")) {
            try h.scheduler.place(
                Placement(
                    id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemSmall,
                    configuration: ["city": .string("Oslo")]))
        }
        #expect(throws: PlacementError.parameterTypeMismatch(name: "count", expected: .int, got: .string)) {
            try h.scheduler.place(
                Placement(
                    id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemSmall,
                    configuration: ["count": .string("3")]))
        }
        h.run {
            try! $0.place(
                Placement(
                    id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemSmall,
                    configuration: ["count": .int(3)]))
        }
        try h.settle()
        let context = try #require(h.fetches(of: 1).first?.request.context)
        #expect(context.configuration == ["count": .int(3), "watchlist": .string("Favorites")])
        #expect(context.isPreview == false)
    }

    @Test("editing a placement's configuration reloads it, free, with the new values")
    func reconfigureReloads() throws {
        let h = Harness()
        try h.scheduler.install(
            app: Fixture.app,
            kinds: [
                Fixture.widget(parameters: [ConfigurationParameter(name: "count", type: .int, defaultValue: .int(1))])
            ])
        h.run { try! $0.place(Placement(id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemSmall)) }
        try h.advance(minutes: 1)
        h.run { try! $0.reconfigure(1, configuration: ["count": .int(7)]) }
        try h.settle()
        let last = try #require(h.fetches(of: 1).last?.request)
        #expect(h.fetches(of: 1).count == 2)
        #expect(last.context.configuration == ["count": .int(7)])
        #expect(last.charged == false)
    }

    @Test("removing a placement cancels its call in flight and ignores the late answer")
    func removeCancels() throws {
        let h = try Fixture.harness(placements: 1)
        h.provider = { _, _ in .silence }
        try h.settle()
        let request = try #require(h.unanswered.first)
        var effects: [TimelineEffect] = []
        try h.run {
            effects = try $0.remove(1); return effects
        }
        #expect(effects.contains(.cancelFetch(request.id)))
        h.answer(request, with: .timeline(Timeline(entries: [TimelineEntry(date: h.clock.now)])))
        #expect(h.shown(1).count == 1)  // only the placeholder from placing
        #expect(h.scheduler.placementCount == 0)
        #expect(h.scheduler.nextDeadline() == nil)
    }

    @Test("uninstalling an app removes its placements and kinds")
    func uninstall() throws {
        let h = try Fixture.harness(placements: 3)
        h.run { $0.uninstall(app: Fixture.app) }
        #expect(h.scheduler.placementCount == 0)
        #expect(h.scheduler.kinds(of: Fixture.app).isEmpty)
        try h.scheduler.install(app: Fixture.app, kinds: [Fixture.widget()])
        #expect(h.scheduler.kinds(of: Fixture.app).map(\.kind) == [Fixture.kind])
    }

    @Test("reinstalling an app reuses its kind records: install and uninstall 1,000 times, the table stays its size")
    func reinstallDoesNotGrow() throws {
        let h = Harness()
        for round in 0..<1000 {
            try h.scheduler.install(app: Fixture.app, kinds: [Fixture.widget(), Fixture.widget(Fixture.otherKind)])
            try h.run {
                try $0.place(
                    Placement(
                        id: PlacementID(UInt64(round + 1)), app: Fixture.app, kind: Fixture.kind, family: .systemSmall))
            }
            h.run { $0.uninstall(app: Fixture.app) }
        }
        #expect(h.scheduler.kinds.count == 2)
        #expect(h.scheduler.kindIndex.isEmpty)
        #expect(h.scheduler.placementCount == 0)
        // And the app installs again with working kinds.
        try h.scheduler.install(app: Fixture.app, kinds: [Fixture.widget()])
        try h.run { try $0.place(Placement(id: 5000, app: Fixture.app, kind: Fixture.kind, family: .systemSmall)) }
        try h.settle()
        #expect(h.scheduler.currentEntry(of: 5000) != nil)
    }
}

@Suite("The app's placeholder (placeholder(in:))")
struct PlaceholderTests {
    static let sample = TimelineEntry(date: Date(timeIntervalSince1970: 0), content: [7, 7])

    @Test("placing asks for the app's placeholder with the placement's context, after the device's own")
    func placingAsksForThePlaceholder() throws {
        let h = try Fixture.harness(placements: 0)
        let effects = try h.scheduler.place(
            Placement(id: 4, app: Fixture.app, kind: Fixture.kind, family: .systemSmall))
        guard effects.count >= 2, case .entryChanged(4, nil) = effects[0],
            case .fetchPlaceholder(let asked) = effects[1]
        else {
            Issue.record("no placeholder asked for: \(effects)")
            return
        }
        #expect(asked.placement == 4 && asked.app == Fixture.app && asked.kind == Fixture.kind)
        #expect(asked.context == h.scheduler.context(of: PlacementID(4)))
        #expect(!asked.context.isPreview)
    }

    @Test("the placeholder shows until the first timeline, which clears it; a late one is ignored")
    func placeholderUntilTheFirstTimeline() throws {
        let h = try Fixture.harness(placements: 0)
        h.provider = { _, _ in .silence }
        try h.run { try $0.place(Placement(id: 4, app: Fixture.app, kind: Fixture.kind, family: .systemSmall)) }
        try h.settle()
        #expect(h.scheduler.placeholderReceived(Self.sample, for: 4) == [.placeholderShown(4, Self.sample)])
        #expect(h.scheduler.placeholder(of: 4) == Self.sample)
        #expect(h.scheduler.currentEntry(of: 4) == nil)

        let call = try #require(h.unanswered.first)
        h.answer(call, with: .timeline(Timeline(entries: [TimelineEntry(date: h.clock.now, content: [1])])))
        #expect(h.scheduler.placeholder(of: 4) == nil)
        #expect(h.scheduler.currentEntry(of: 4)?.content == [1])
        // An answer that comes after the timeline changes nothing.
        #expect(h.scheduler.placeholderReceived(Self.sample, for: 4).isEmpty)
        #expect(h.scheduler.placeholder(of: 4) == nil)
    }

    @Test("a placeholder for a removed or unknown placement is ignored, and removal forgets it")
    func placeholderOfAGonePlacement() throws {
        let h = try Fixture.harness(placements: 0)
        h.provider = { _, _ in .silence }
        try h.run { try $0.place(Placement(id: 4, app: Fixture.app, kind: Fixture.kind, family: .systemSmall)) }
        _ = h.scheduler.placeholderReceived(Self.sample, for: 4)
        try h.run { try $0.remove(4) }
        #expect(h.scheduler.placeholder(of: 4) == nil)
        #expect(h.scheduler.placeholderReceived(Self.sample, for: 4).isEmpty)
        #expect(h.scheduler.placeholderReceived(Self.sample, for: 99).isEmpty)
    }
}
