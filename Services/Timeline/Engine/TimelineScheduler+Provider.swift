#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseVocabulary

/// Answers from providers: a timeline, or a failure. Timeouts arrive through `fireDue()`.
extension TimelineScheduler {
    /// A provider answered call `fetch`. The timeline replaces the old one if it is within
    /// the caps; an over-cap timeline is rejected and handled as a failure. An answer to a
    /// call that timed out, was superseded or whose placement is gone is ignored.
    package mutating func timelineReceived(_ timeline: Timeline, for fetch: FetchID) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        guard let slot = inFlightSlot(of: fetch) else { return effects }
        let (t, rules) = (now, rules)
        let i = Int(slot)
        let stored: StoredTimeline
        do {
            stored = try StoredTimeline.make(
                timeline, maxEntries: settings.maxEntriesPerTimeline, maxBytes: settings.maxTimelineBytes)
        } catch {
            effects.append(.timelineRejected(records[i].id, error))
            fail(slot, now: t, rules: rules, effects: &effects)
            finish(&effects)
            return effects
        }
        let newIndex = stored.index(at: t) ?? -1
        let oldIndex = Int(records[i].shownIndex)
        let changed: Bool
        if let previous = timelines[i], oldIndex >= 0, newIndex >= 0 {
            changed = !stored.sameEntry(newIndex, as: previous, oldIndex)
        } else {
            changed = oldIndex != newIndex
        }
        timelines[i] = stored
        if !placeholders.isEmpty { placeholders[records[i].id] = nil }
        records[i].shownIndex = Int32(newIndex)
        records[i].nextEntryAt = stored.date(after: newIndex)
        records[i].policyDueAt = stored.policyDue(receivedAt: t)
        records[i].isFetching = false
        records[i].failures = 0
        records[i].retryAt = .infinity
        if changed {
            effects.append(.entryChanged(records[i].id, shownEntry(slot)))
            effects.append(.entryAnswered(records[i].id))
        } else {
            effects.append(.timelineUnchanged(records[i].id))
        }
        reschedule(slot, rules: rules)
        finish(&effects)
        return effects
    }

    /// The app answered `placeholder(in:)` for placement `id`: shown (redacted) while it has
    /// no timeline; ignored once it has one, or when it is gone.
    package mutating func placeholderReceived(_ entry: TimelineEntry, for id: PlacementID) -> [TimelineEffect] {
        guard let slot = slotOf[id], timelines[Int(slot)] == nil else { return [] }
        placeholders[id] = entry
        return [.placeholderShown(id, entry)]
    }

    /// A provider call failed: the last timeline stays, a retry is scheduled.
    package mutating func timelineFailed(_ fetch: FetchID) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        guard let slot = inFlightSlot(of: fetch) else { return effects }
        fail(slot, now: now, rules: rules, effects: &effects)
        finish(&effects)
        return effects
    }

    /// Failure of the call in flight: keep the timeline, retry the same reload after backoff.
    mutating func fail(_ slot: UInt32, now t: Seconds, rules: ReloadRules, effects: inout [TimelineEffect]) {
        let i = Int(slot)
        records[i].isFetching = false
        records[i].failures &+= 1
        let retryAt = t + settings.backoff(afterFailures: Int(records[i].failures))
        records[i].retryAt = retryAt
        effects.append(
            .retryScheduled(
                records[i].id, at: Date(timeIntervalSinceReferenceDate: retryAt), failures: Int(records[i].failures)))
        reschedule(slot, rules: rules)
    }

    func inFlightSlot(of fetch: FetchID) -> UInt32? {
        let slot = fetch.slot
        guard Int(slot) < records.count else { return nil }
        let record = records[Int(slot)]
        guard record.live, record.isFetching, FetchID(slot: slot, sequence: record.fetchSequence) == fetch else {
            return nil
        }
        return slot
    }
}
