public import GlimpseMessages
public import GlimpseRPC

/// Where a service sends the reloads it asks of glimpse-timeline (`--timeline-address`):
/// glimpse-intent for taps, glimpse-activity for widget pushes. Without an address the
/// reloads are logged (through `log`) and dropped.
public struct TimelineOutbound: Sendable {
    public var timelineAddress: String?
    public var log: @Sendable (String) -> Void

    public init(timelineAddress: String?, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.timelineAddress = timelineAddress
        self.log = log
    }

    /// The glimpse-timeline client over `connections`, or nil without an address.
    public func timeline(_ connections: Connections) -> GlimpseTimelineV1.TimelineService.Client? {
        guard let timelineAddress, let connection = connections.client(for: timelineAddress) else { return nil }
        return GlimpseTimelineV1.TimelineService.Client(wrapping: connection)
    }
}
