public import GlimpseMessages
public import ServiceKit

/// glimpse-timeline's entry changes, numbered (`EntryChange.sequence`), for `WatchEntries`.
public typealias EntryFeed = EventFeed<GlimpseTimelineV1.EntryChange>

extension EventFeed where Event == GlimpseTimelineV1.EntryChange {
    public func publish(_ change: GlimpseTimelineV1.EntryChange) {
        publish(contentsOf: [change])
    }

    /// One batch: the changes one engine step made, numbered in order.
    public func publish(contentsOf changes: [GlimpseTimelineV1.EntryChange]) {
        publish(count: changes.count) { index, sequence in
            var numbered = changes[index]
            numbered.sequence = sequence
            return numbered
        }
    }
}
