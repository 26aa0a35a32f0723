import Foundation
import GlimpseVocabulary
import TimelineEngine

/// glimpse-bench-timeline [--placements N] [--hours H]
///
/// Places N widgets (default 1,000,000) with mixed reload policies and 4–12-entry
/// timelines, advances a virtual clock through H hours (default 24), and prints events
/// handled per second, the worst lateness of a due reload, and resident bytes per placement.
@main
enum BenchMain {
    static func main() throws {
        var placements = 1_000_000
        var hours = 24
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--placements": placements = Int(arguments.next() ?? "") ?? placements
            case "--hours": hours = Int(arguments.next() ?? "") ?? hours
            default: print("usage: glimpse-bench-timeline [--placements N] [--hours H]"); return
            }
        }

        let baseline = residentBytes()
        let wall = ContinuousClock()
        let simulation = try Simulation()
        let setupStart = wall.now
        try simulation.place(placements)
        let setupTime = wall.now - setupStart
        let afterSetup = simulation.scheduler.statistics()

        let dayStart = wall.now
        try simulation.run(hours: hours, placements: placements)
        let dayTime = wall.now - dayStart
        let residentUntrimmed = residentBytes() - baseline
        trimHeap()
        let resident = residentBytes() - baseline
        let stats = simulation.scheduler.statistics()

        let daySeconds = Double(dayTime.components.seconds) + Double(dayTime.components.attoseconds) * 1e-18
        let wakeUps = Int(stats.handledWakeUps - afterSetup.handledWakeUps)
        let events = wakeUps + simulation.providerAnswers + simulation.requests
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }

        print("glimpse-bench-timeline: \(placements) placements, \(hours) h of virtual time")
        print("setup (place + first call each):  \(setupTime)")
        print("simulated day:                    \(dayTime) wall")
        print(
            "events handled:                   \(events) (wake-ups \(wakeUps), provider answers \(simulation.providerAnswers), requests \(simulation.requests))"
        )
        print("events per second:                \(f(Double(events) / daySeconds, 0))")
        print(
            "provider calls:                   \(simulation.fetches) (charged \(simulation.charged), retries \(simulation.retries))"
        )
        print("entry changes:                    \(simulation.entryChanges)")
        print(
            "worst lateness of a due reload:   \(f(simulation.worstLateness, 3)) s (dispatch time − due time, virtual clock)"
        )
        print(
            "reloads deferred by spacing/budget: \(simulation.deferred), longest \(f(simulation.worstDeferral / 60)) min (wanted → due; not lateness)"
        )
        print("placements waiting for budget at the end: \(stats.waitingForBudget) (70 reloads spent in the last 24 h)")
        print(
            "resident bytes (VmRSS − start):   \(residentUntrimmed) (\(f(Double(residentUntrimmed) / 1_048_576)) MiB) before malloc_trim, \(resident) (\(f(Double(resident) / 1_048_576)) MiB) after"
        )
        print("resident bytes per placement, before malloc_trim: \(f(Double(residentUntrimmed) / Double(placements)))")
        print("resident bytes per placement:     \(f(Double(resident) / Double(placements))) (after malloc_trim)")
        print(
            "entries' own bytes per placement: \(f(Double(stats.entryBytes) / Double(placements))) (\(stats.entries) entries held)"
        )
        print(
            "reload budgets' bytes per placement: \(f(Double(stats.budgetBytes) / Double(placements))) (\(stats.budgetCharges) charges held)"
        )
        print("beyond entries' bytes, per placement: \(f(Double(resident - stats.entryBytes) / Double(placements)))")
        print(
            "queued wake-ups and timeouts:     \(stats.queuedWakeUps) for \(stats.placements) placements (live and stale)"
        )
    }
}
