import AppIntentValues
import GlimpseVocabulary

/// The scheduler's state for a snapshot: every stored property but the clock and what the
/// settings give (`settings`, `familySizes`), which a restored scheduler takes from the run
/// that restores it. The queues are saved as they are (buckets, heaps, stale items and
/// all), so a restored scheduler fires, coalesces and compacts exactly as the saved one.
extension TimelineScheduler: Encodable {
    enum CodingKeys: String, CodingKey {
        case lowPowerMode, apps, appActive, appIndex, kinds, freeKindSlots, kindIndex, records, timelines
        case configurations, budgets, freeSlots, slotOf, queue, timeouts, fetchCounter, announcedWake
        case handledWakeUps, warmth
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lowPowerMode, forKey: .lowPowerMode)
        try container.encode(apps, forKey: .apps)
        try container.encode(appActive, forKey: .appActive)
        try container.encode(appIndex, forKey: .appIndex)
        try container.encode(kinds, forKey: .kinds)
        try container.encode(freeKindSlots, forKey: .freeKindSlots)
        try container.encode(kindIndex, forKey: .kindIndex)
        try container.encode(records, forKey: .records)
        // A stored timeline is packed memory; its entries, sorted, pack back to the same.
        try container.encode(timelines.map { $0?.timeline }, forKey: .timelines)
        try container.encode(configurations, forKey: .configurations)
        try container.encode(budgets, forKey: .budgets)
        try container.encode(freeSlots, forKey: .freeSlots)
        try container.encode(slotOf, forKey: .slotOf)
        try container.encode(queue, forKey: .queue)
        try container.encode(timeouts, forKey: .timeouts)
        try container.encode(fetchCounter, forKey: .fetchCounter)
        try container.encode(announcedWake, forKey: .announcedWake)
        try container.encode(handledWakeUps, forKey: .handledWakeUps)
        try container.encode(warmth, forKey: .warmth)
    }

    /// Makes this scheduler (fresh, with this run's clock and settings) the one `decoder` holds.
    public mutating func restore(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lowPowerMode = try container.decode(Bool.self, forKey: .lowPowerMode)
        apps = try container.decode([AppState].self, forKey: .apps)
        appActive = try container.decode([Bool].self, forKey: .appActive)
        appIndex = try container.decode([AppID: UInt32].self, forKey: .appIndex)
        kinds = try container.decode([KindRecord].self, forKey: .kinds)
        freeKindSlots = try container.decode([UInt32].self, forKey: .freeKindSlots)
        kindIndex = try container.decode([KindKey: UInt32].self, forKey: .kindIndex)
        records = try container.decode(ContiguousArray<PlacementRecord>.self, forKey: .records)
        // Stored timelines were within the caps when taken; a restore keeps them whatever the caps now.
        timelines = ContiguousArray(try container.decode([Timeline?].self, forKey: .timelines).map { timeline in
            try timeline.map { try StoredTimeline.make($0, maxEntries: .max, maxBytes: .max) }
        })
        configurations = try container.decode(ContiguousArray<[String: ConfigurationValue]>.self, forKey: .configurations)
        budgets = try container.decode(ContiguousArray<ReloadBudget>.self, forKey: .budgets)
        freeSlots = try container.decode([UInt32].self, forKey: .freeSlots)
        slotOf = try container.decode([PlacementID: UInt32].self, forKey: .slotOf)
        queue = try container.decode(WakeQueue.self, forKey: .queue)
        timeouts = try container.decode(TimeoutQueue.self, forKey: .timeouts)
        fetchCounter = try container.decode(UInt32.self, forKey: .fetchCounter)
        announcedWake = try container.decode(Seconds.self, forKey: .announcedWake)
        handledWakeUps = try container.decode(UInt64.self, forKey: .handledWakeUps)
        warmth = try container.decode(UInt64.self, forKey: .warmth)
    }
}
