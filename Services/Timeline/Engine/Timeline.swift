#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseVocabulary

/// What a provider returns: entries and when to ask again (`Timeline(entries:policy:)`).
package struct Timeline: Sendable, Hashable, Codable {
    package var entries: [TimelineEntry]
    package var policy: ReloadPolicy

    package init(entries: [TimelineEntry], policy: ReloadPolicy = .atEnd) {
        self.entries = entries
        self.policy = policy
    }

    /// The cap this timeline breaks, or nil: more than `maxEntries` entries, or more than
    /// `maxBytes` of content and URLs (`TimelineEntry.byteCount`). The scheduler refuses a
    /// timeline that breaks one (`TimelineSettings.maxEntriesPerTimeline`, `maxTimelineBytes`).
    package func capViolation(maxEntries: Int, maxBytes: Int) -> TimelineRejection? {
        guard entries.count <= maxEntries else { return .tooManyEntries(count: entries.count, limit: maxEntries) }
        let total = entries.reduce(0) { $0 + $1.byteCount }
        guard total <= maxBytes else { return .tooManyBytes(count: total, limit: maxBytes) }
        return nil
    }

    /// `capViolation(maxEntries:maxBytes:)` with the caps of `settings`.
    package func capViolation(_ settings: TimelineSettings) -> TimelineRejection? {
        capViolation(maxEntries: settings.maxEntriesPerTimeline, maxBytes: settings.maxTimelineBytes)
    }
}

/// One state of a widget, shown from `date` until the next entry's date.
package struct TimelineEntry: Sendable, Hashable, Codable {
    package var date: Date
    package var relevance: EntryRelevance?
    /// The serialized view tree. Opaque: the engine stores, counts and hands it back.
    package var content: [UInt8]
    /// The hierarchy's one `widgetURL`, if it has one.
    package var url: String?

    package init(date: Date, relevance: EntryRelevance? = nil, content: [UInt8] = [], url: String? = nil) {
        self.date = date
        self.relevance = relevance
        self.content = content
        self.url = url
    }

    /// Bytes this entry counts against the timeline size cap.
    package var byteCount: Int { content.count + (url?.utf8.count ?? 0) }
}

/// `TimelineEntryRelevance(score:duration:)`: from the entry's date, for `duration`
/// seconds, the widget may rotate to the top of a Smart Stack.
package struct EntryRelevance: Sendable, Hashable, Codable {
    package var score: Float
    /// Seconds after the entry's date. 0 (WidgetKit's default) is read as "while this
    /// entry is current" — a default that made relevance vanish at once would be useless.
    package var duration: TimeInterval

    package init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}

/// `TimelineReloadPolicy`.
package enum ReloadPolicy: Sendable, Hashable, Codable {
    /// Ask again once the last entry's date has come (the default).
    case atEnd
    /// Ask again no earlier than this date (before or after the last entry).
    case after(Date)
    /// Ask again only when the app or an intent reloads explicitly.
    case never
}
