package import GlimpseVocabulary
package import ServiceKit

/// "App Group G is at sequence N now", for the `Watch` streams; each stream reads the
/// changes themselves from the store. The feed's count is the watermark `AdvanceTo` reports.
package struct StoreSignal: Sendable, Hashable {
    package var group: GroupID
    package var sequence: UInt64
}

package typealias StoreFeed = EventFeed<StoreSignal>

extension EventFeed where Event == StoreSignal {
    package func publish(_ group: GroupID, sequence: UInt64) {
        publish { _ in StoreSignal(group: group, sequence: sequence) }
    }
}
