import ActivityEngine
import GlimpseVocabulary
import ActivityService
import GlimpseMessages
import IntentService
import ProtoMapping
import TimelineEngine
import TimelineService
import ActivityMapping
import IntentMapping
import TimelineMapping

/// The step after decoding: each accepted message the services map field by field into
/// their own values goes through that same mapping (`InvalidField` is the typed refusal).
enum ProtoValues {
    static func map(_ message: any GlimpseMessage) {
        switch message {
        case let m as GlimpseTimelineV1.InstallAppRequest: manifest(m.manifest)
        case let m as GlimpseActivityV1.InstallAppRequest: manifest(m.manifest)
        case let m as GlimpseIntentV1.RegisterAppRequest: manifest(m.manifest)
        case let m as GlimpseGatewayV1.InstallRequest: manifest(m.manifest)
        case let m as GlimpseAppV1.TimelineResponse:
            if let timeline = m.timeline { _ = try? TimelineEngine.Timeline(timeline) }
        case let m as GlimpseAppV1.PlaceholderResponse:
            if let entry = m.entry { _ = try? TimelineEngine.TimelineEntry(entry, field: "entry") }
        case let m as GlimpseAppV1.SnapshotResponse:
            if let entry = m.entry { _ = try? TimelineEngine.TimelineEntry(entry, field: "entry") }
        case let m as GlimpseAppV1.ActivityViewsResponse:
            if let views = m.views { _ = ContentLimits.violation(of: views) }
        case let m as GlimpseActivityV1.RequestActivityRequest:
            _ = try? ActivityContent(m.content, field: "content")
        case let m as GlimpseActivityV1.UpdateActivityRequest:
            _ = try? ActivityContent(m.content, field: "content")
            _ = AlertConfiguration(m.alert)
            _ = try? m.timestamp?.date(field: "timestamp")
        case let m as GlimpseActivityV1.EndActivityRequest:
            if m.content != nil { _ = try? ActivityContent(m.content, field: "content") }
            _ = try? DismissalPolicy(m.dismissalPolicy, field: "dismissal_policy")
            _ = try? m.timestamp?.date(field: "timestamp")
        case let m as GlimpseIntentV1.SetRequest:
            if let value = m.value { _ = try? TypedValue(value, field: "value") }
        default:
            break
        }
    }

    /// What installing an app does with its manifest: glimpse-timeline's widget kinds and
    /// glimpse-intent's intent definitions.
    private static func manifest(_ manifest: GlimpseAppV1.AppManifest?) {
        guard let manifest else { return }
        _ = try? manifest.widgetKinds()
        _ = try? manifest.intentDefinitions()
    }
}
