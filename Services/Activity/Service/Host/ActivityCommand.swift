package import GlimpseMessages
package import ServiceKit

/// An input of glimpse-activity, as journaled: a `glimpse.activity.v1.JournalRecord`.
package typealias ActivityCommand = JournalCommand<GlimpseActivityV1.JournalRecord, ActivityAnswer>

extension GlimpseActivityV1.JournalRecord: JournalRecordMessage {}

/// What a command answers its caller.
package enum ActivityAnswer: Sendable, Hashable {
    case none
    case installed(token: String)
    case removed([String])
    case activity(GlimpseActivityV1.Activity)
    case change(GlimpseActivityV1.ChangeResponse)
    case token(String)
    case authorization(GlimpseActivityV1.AuthorizationInfo)
    /// A push: what the endpoint answers (the push log has the whole record); `goaway` when a
    /// fault asked for one.
    case push(status: Int32, headers: [String: String], body: [UInt8], goaway: Bool)
    case fault(UInt64)
    case cleared(UInt32)
}
