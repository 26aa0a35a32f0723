package import GlimpseVocabulary

/// The scheduler's state for a snapshot: every stored property but the clock and what the
/// settings give (`settings`, `familySizes`), which a restored scheduler takes from the run
/// that restores it. The queues are saved as they are (buckets, heaps, stale items and
/// all), so a restored scheduler fires, coalesces and compacts exactly as the saved one.
extension TimelineScheduler: SnapshotFields {
    package enum FieldKey: String, CodingKey, CaseIterable {
        case lowPowerMode, apps, appActive, appIndex, kinds, freeKindSlots, kindIndex, records, timelines
        case configurations, budgets, freeSlots, slotOf, queue, timeouts, fetchCounter, announcedWake
        case handledWakeUps, warmth, placeholders
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visit(.lowPowerMode, &lowPowerMode)
        try fields.visit(.apps, &apps)
        try fields.visit(.appActive, &appActive)
        try fields.visit(.appIndex, &appIndex)
        try fields.visit(.kinds, &kinds)
        try fields.visit(.freeKindSlots, &freeKindSlots)
        try fields.visit(.kindIndex, &kindIndex)
        try fields.visit(.records, &records)
        // A stored timeline is packed memory: saved as its entries, which are sorted and
        // were within the caps, so they pack back to the same whatever the caps are now.
        try fields.visit(
            .timelines, &timelines, saving: { $0.map { $0?.timeline } },
            restoring: { saved in
                ContiguousArray(
                    try saved.map { timeline in
                        try timeline.map { try StoredTimeline.make($0, maxEntries: .max, maxBytes: .max) }
                    })
            })
        // Saved as before, one (mostly empty) configuration per slot.
        let slots = records.count
        try fields.visit(
            .configurations, &configurations,
            saving: { kept in ContiguousArray((0..<slots).map { kept[UInt32($0)] ?? [:] }) },
            restoring: { (saved: ContiguousArray<[String: ConfigurationValue]>) in
                var kept: [UInt32: [String: ConfigurationValue]] = [:]
                for (slot, configuration) in saved.enumerated() where !configuration.isEmpty {
                    kept[UInt32(slot)] = configuration
                }
                return kept
            })
        try fields.visit(.budgets, &budgets)
        try fields.visit(.freeSlots, &freeSlots)
        try fields.visit(.slotOf, &slotOf)
        try fields.visit(.queue, &queue)
        try fields.visit(.timeouts, &timeouts)
        try fields.visit(.fetchCounter, &fetchCounter)
        try fields.visit(.announcedWake, &announcedWake)
        try fields.visit(.handledWakeUps, &handledWakeUps)
        try fields.visit(.warmth, &warmth)
        try fields.visitAdded(.placeholders, &placeholders)
    }
}
