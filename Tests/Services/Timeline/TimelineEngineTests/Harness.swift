import Foundation
import GlimpseVocabulary
import Testing
@testable import TimelineEngine
import EngineTesting

/// A scheduler on a virtual clock, with a scripted provider. It drives the clock through
/// the scheduler's deadlines and records every effect with the virtual time it came out.
final class Harness {
    enum Answer {
        case timeline(Timeline)
        case failure
        /// Leave the call unanswered (to test timeouts, or to answer by hand).
        case silence
    }

    let clock = VirtualClock()
    let start: Date
    var scheduler: TimelineScheduler
    /// Answers each provider call; by default one entry "now" with policy `.never`.
    var provider: (FetchRequest, Date) -> Answer = { _, now in
        .timeline(Timeline(entries: [TimelineEntry(date: now, content: [0])], policy: .never))
    }
    private(set) var log: [(at: TimeInterval, effect: TimelineEffect)] = []
    private(set) var unanswered: [FetchRequest] = []

    init(settings: TimelineSettings = .defaults) {
        start = clock.now
        scheduler = TimelineScheduler(clock: clock, settings: settings)
    }

    /// Seconds since the harness started.
    var elapsed: TimeInterval { clock.now.timeIntervalSince(start) }
    func date(minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    /// Runs one call into the scheduler and handles what it returns.
    func run(_ call: (inout TimelineScheduler) throws -> [TimelineEffect]) rethrows {
        handle(try call(&scheduler))
    }

    /// Moves the clock forward, firing every deadline on the way in time order.
    func advance(minutes: Double) throws {
        try advance(to: clock.now.addingTimeInterval(minutes * 60))
    }

    func advance(to target: Date) throws {
        try clock.advance(
            to: target,
            nextDeadline: { self.scheduler.nextDeadline() },
            fire: { _ in self.handle(self.scheduler.fireDue()) })
    }

    /// Does what is due right now (e.g. dispatches requests just made), without moving time.
    func settle() throws { try advance(to: clock.now) }

    /// Answers an unanswered call by hand.
    func answer(_ request: FetchRequest, with answer: Answer) {
        unanswered.removeAll { $0.id == request.id }
        respond(request, answer)
    }

    private func handle(_ effects: [TimelineEffect]) {
        for effect in effects {
            log.append((elapsed, effect))
            if case .fetchTimeline(let request) = effect {
                respond(request, provider(request, clock.now))
            }
        }
    }

    private func respond(_ request: FetchRequest, _ answer: Answer) {
        switch answer {
        case .timeline(let timeline): handle(scheduler.timelineReceived(timeline, for: request.id))
        case .failure: handle(scheduler.timelineFailed(request.id))
        case .silence: unanswered.append(request)
        }
    }

    // MARK: What happened

    /// Provider calls, with the minute each went out.
    func fetches(of placement: PlacementID? = nil) -> [(minute: Double, request: FetchRequest)] {
        log.compactMap { at, effect in
            guard case .fetchTimeline(let request) = effect,
                placement == nil || request.placement == placement
            else { return nil }
            return (at / 60, request)
        }
    }

    func fetchMinutes(of placement: PlacementID? = nil) -> [Double] { fetches(of: placement).map(\.minute) }

    /// Entry changes of a placement: the minute, and the content shown (nil: placeholder).
    func shown(_ placement: PlacementID) -> [(minute: Double, content: [UInt8]?)] {
        log.compactMap { at, effect in
            guard case .entryChanged(let id, let entry) = effect, id == placement else { return nil }
            return (at / 60, entry?.entry.content)
        }
    }

    func effects(where match: (TimelineEffect) -> Bool) -> [TimelineEffect] {
        log.map(\.effect).filter(match)
    }
}

/// Apps and kinds the tests share.
enum Fixture {
    static let app: AppID = "com.example.app"
    static let kind = "Widget"
    static let otherKind = "Other"

    static func widget(
        _ kind: String = Fixture.kind, families: Set<WidgetFamily> = [.systemSmall, .systemMedium],
        parameters: [ConfigurationParameter] = []
    ) -> WidgetKind {
        WidgetKind(kind: kind, displayName: kind, supportedFamilies: families, parameters: parameters)
    }

    /// An installed app with `Widget` and `Other`, and `count` small placements of `Widget` (ids 1…count).
    static func harness(placements count: Int = 1, settings: TimelineSettings = .defaults) throws -> Harness {
        let harness = Harness(settings: settings)
        try harness.scheduler.install(app: app, kinds: [widget(), widget(otherKind)])
        for id in 0..<count {
            try harness.run {
                try $0.place(Placement(id: PlacementID(UInt64(id + 1)), app: app, kind: kind, family: .systemSmall))
            }
        }
        return harness
    }

    /// Entries every `spacing` minutes from `from`, content = their index (mod 256).
    static func entries(from: Date, count: Int, spacingMinutes: Double) -> [TimelineEntry] {
        (0..<count).map {
            TimelineEntry(
                date: from.addingTimeInterval(Double($0) * spacingMinutes * 60),
                content: [UInt8(truncatingIfNeeded: $0)])
        }
    }
}
