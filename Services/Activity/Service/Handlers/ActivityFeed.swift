package import GlimpseMessages
package import ServiceKit

/// glimpse-activity's changes, numbered (`ActivityChange.sequence`), for `WatchActivities`.
package typealias ActivityFeed = EventFeed<GlimpseActivityV1.ActivityChange>

extension EventFeed where Event == GlimpseActivityV1.ActivityChange {
    /// One batch: the changes one engine step made, numbered in order.
    package func publish(contentsOf changes: [GlimpseActivityV1.ActivityChange]) {
        publish(count: changes.count) { index, sequence in
            var numbered = changes[index]
            numbered.sequence = sequence
            return numbered
        }
    }
}
