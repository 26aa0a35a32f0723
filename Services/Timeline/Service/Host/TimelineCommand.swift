package import GlimpseMessages
package import ServiceKit

/// An input of glimpse-timeline, as journaled: a `glimpse.timeline.v1.JournalRecord`.
package typealias TimelineCommand = JournalCommand<GlimpseTimelineV1.JournalRecord, TimelineAnswer>

extension GlimpseTimelineV1.JournalRecord: JournalRecordMessage {}

/// What a command answers its caller.
package enum TimelineAnswer: Sendable, Hashable {
    case none
    case installed(token: String)
    case placed(UInt64)
    case removed([UInt64])
}
