#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers from providers: a timeline, or a failure. Timeouts arrive through `fireDue()`.
extension TimelineScheduler {
    /// A provider answered call `fetch`. The timeline replaces the old one if it is within
    /// the caps; an over-cap timeline is rejected and handled as a failure. An answer to a
    /// call that timed out, was superseded or whose placement is gone is ignored.
    public mutating func timelineReceived(_ timeline: Timeline, for fetch: FetchID) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        guard let slot = inFlightSlot(of: fetch) else { return effects }
        let stored: StoredTimeline
        do {
            stored = try StoredTimeline(
                timeline, maxEntries: settings.maxEntriesPerTimeline, maxBytes: settings.maxTimelineBytes)
        } catch {
            effects.append(.timelineRejected(records[Int(slot)].id, error))
            fail(slot, effects: &effects)
            finish(&effects)
            return effects
        }
        let t = now
        let i = Int(slot)
        let old = records[i]
        let newIndex = stored.index(at: t)
        let changed: Bool
        switch (old.shownIndex >= 0 ? old.timeline : nil, newIndex) {
        case (nil, nil): changed = false
        case (let previous?, let index?): changed = !stored.sameEntry(index, as: previous, Int(old.shownIndex))
        default: changed = true
        }
        records[i].timeline = stored
        records[i].shownIndex = Int32(newIndex ?? -1)
        records[i].policyDueAt = stored.policyDue(receivedAt: t)
        records[i].inFlightSince = .nan
        records[i].failures = 0
        records[i].retryAt = .infinity
        if changed { effects.append(.entryChanged(old.id, records[i].shownEntry)) }
        reschedule(slot)
        finish(&effects)
        return effects
    }

    /// A provider call failed: the last timeline stays, a retry is scheduled.
    public mutating func timelineFailed(_ fetch: FetchID) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        guard let slot = inFlightSlot(of: fetch) else { return effects }
        fail(slot, effects: &effects)
        finish(&effects)
        return effects
    }

    /// Failure of the call in flight: keep the timeline, retry the same reload after backoff.
    mutating func fail(_ slot: UInt32, effects: inout [TimelineEffect]) {
        let i = Int(slot)
        records[i].inFlightSince = .nan
        records[i].failures &+= 1
        let retryAt = now + settings.backoff(afterFailures: Int(records[i].failures))
        records[i].retryAt = retryAt
        effects.append(.retryScheduled(
            records[i].id, at: Date(timeIntervalSinceReferenceDate: retryAt), failures: Int(records[i].failures)))
        reschedule(slot)
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

extension StoredTimeline {
    /// Whether entry `index` equals entry `other` of `timeline` (date, relevance, content, URL).
    func sameEntry(_ index: Int, as timeline: StoredTimeline, _ other: Int) -> Bool {
        let a = headers[index], b = timeline.headers[other]
        guard a.date == b.date, a.relevanceScore == b.relevanceScore,
              a.relevanceDuration == b.relevanceDuration || (a.relevanceDuration.isNaN && b.relevanceDuration.isNaN),
              (urls?[index] ?? nil) == (timeline.urls?[other] ?? nil)
        else { return false }
        let aStart = index == 0 ? 0 : Int(headers[index - 1].contentEnd)
        let bStart = other == 0 ? 0 : Int(timeline.headers[other - 1].contentEnd)
        return bytes[aStart..<Int(a.contentEnd)].elementsEqual(timeline.bytes[bStart..<Int(b.contentEnd)])
    }
}
