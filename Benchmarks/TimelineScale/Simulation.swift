import Foundation
import GlimpseVocabulary
import TimelineEngine

/// One simulated device fleet: a scheduler on a virtual clock, with providers that answer
/// at once (or fail), apps that reload explicitly, and intent taps.
final class Simulation {
    let clock = VirtualClock()
    let start: Date
    var scheduler: TimelineScheduler
    var workload = Workload()

    var providerAnswers = 0
    var requests = 0
    var fetches = 0
    var charged = 0
    var retries = 0
    var entryChanges = 0
    var worstLateness: TimeInterval = 0
    var worstDeferral: TimeInterval = 0
    var deferred = 0

    init() throws {
        start = clock.now
        scheduler = TimelineScheduler(clock: clock)
        for i in 0..<Workload.appCount {
            try scheduler.install(
                app: Workload.app(i),
                kinds: Workload.kinds.map {
                    WidgetKind(kind: $0, displayName: $0, supportedFamilies: Set(Workload.families))
                })
        }
    }

    /// Places `count` widgets at the start, in batches, dispatching and answering their first calls.
    func place(_ count: Int) throws {
        let batch = 10_000
        for first in stride(from: 1, through: count, by: batch) {
            for n in first..<min(first + batch, count + 1) {
                handle(try scheduler.place(workload.placement(n)))
            }
            handle(scheduler.fireDue())
        }
    }

    /// Runs `hours` of virtual time in 10-minute steps; each step starts with some apps
    /// reloading a kind and some intent taps, then drives the clock through every deadline.
    func run(hours: Int, placements: Int) throws {
        for step in 1...(hours * 6) {
            for _ in 0..<5 {
                let app = Workload.app(workload.random.int(0...(Workload.appCount - 1)))
                handle(scheduler.reloadTimelines(ofKind: Workload.kinds[0], app: app))
                requests += 1
            }
            for _ in 0..<500 {
                let id = PlacementID(UInt64(workload.random.int(1...placements)))
                handle((try? scheduler.reload(id, reason: .intentPerformed)) ?? [])
                requests += 1
            }
            try clock.advance(
                to: start.addingTimeInterval(Double(step) * 600),
                nextDeadline: { self.scheduler.nextDeadline() },
                fire: { _ in self.handle(self.scheduler.fireDue()) })
        }
    }

    func handle(_ effects: [TimelineEffect]) {
        for effect in effects {
            switch effect {
            case .fetchTimeline(let request):
                let now = clock.now
                fetches += 1
                if request.charged { charged += 1 }
                if request.retry > 0 { retries += 1 }
                worstLateness = max(worstLateness, now.timeIntervalSince(request.dueAt))
                let deferral = request.dueAt.timeIntervalSince(request.wantedAt)
                if deferral > 0 { deferred += 1; worstDeferral = max(worstDeferral, deferral) }
                providerAnswers += 1
                if let timeline = workload.answer(request, now: now) {
                    handle(scheduler.timelineReceived(timeline, for: request.id))
                } else {
                    handle(scheduler.timelineFailed(request.id))
                }
            case .entryChanged:
                entryChanges += 1
            default:
                break
            }
        }
    }
}
