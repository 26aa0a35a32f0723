package import GlimpseMessages
package import ServiceKit

/// glimpse-timeline's entry changes, numbered (`EntryChange.sequence`), for `WatchEntries`.
package typealias EntryFeed = EventFeed<GlimpseTimelineV1.EntryChange>

extension EventFeed where Event == GlimpseTimelineV1.EntryChange {
    package func publish(_ change: GlimpseTimelineV1.EntryChange) {
        publish(contentsOf: [change])
    }

    /// One batch: the changes one engine step made, numbered in order.
    package func publish(contentsOf changes: [GlimpseTimelineV1.EntryChange]) {
        publish(count: changes.count) { index, sequence in
            var numbered = changes[index]
            numbered.sequence = sequence
            return numbered
        }
    }
}
