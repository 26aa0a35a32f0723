public import GlimpseMessages
public import ServiceKit

/// glimpse-timeline's entry changes, numbered (`EntryChange.sequence`), for `WatchEntries`.
public typealias EntryFeed = EventFeed<GlimpseTimelineV1.EntryChange>

extension EventFeed where Event == GlimpseTimelineV1.EntryChange {
    public func publish(_ change: GlimpseTimelineV1.EntryChange) {
        publish { sequence in
            var numbered = change
            numbered.sequence = sequence
            return numbered
        }
    }
}
