public import GlimpseVocabulary
public import ServiceKit

/// "App Group G is at sequence N now", for the `Watch` streams; each stream reads the
/// changes themselves from the store. The feed's count is the watermark `AdvanceTo` reports.
public struct StoreSignal: Sendable, Hashable {
    public var group: GroupID
    public var sequence: UInt64
}

public typealias StoreFeed = EventFeed<StoreSignal>

extension EventFeed where Event == StoreSignal {
    public func publish(_ group: GroupID, sequence: UInt64) {
        publish { _ in StoreSignal(group: group, sequence: sequence) }
    }
}
