#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseMessages
package import ProtoMapping
package import TimelineEngine

/// A provider's answer (`glimpse.widget.v1.Timeline`) as the engine's `Timeline`, and back.
/// The view tree travels as its serialized bytes: the engine stores, counts and hands them
/// back without looking inside.
extension TimelineEngine.Timeline {
    /// Checks every field a provider could get wrong; the engine enforces the caps and order.
    package init(_ wire: GlimpseWidgetV1.Timeline, field: String = "timeline") throws(InvalidField) {
        var entries: [TimelineEngine.TimelineEntry] = []
        entries.reserveCapacity(wire.entries.count)
        for (i, entry) in wire.entries.enumerated() {
            entries.append(try TimelineEngine.TimelineEntry(entry, field: "\(field).entries[\(i)]"))
        }
        let policy: ReloadPolicy
        switch wire.reloadPolicy {
        case nil, .atEnd?: policy = .atEnd  // Timeline(entries:policy:) defaults to .atEnd
        case .never?: policy = .never
        case .after(let date)?: policy = .after(try date.date(field: field + ".after"))
        }
        self.init(entries: entries, policy: policy)
    }

    package var wire: GlimpseWidgetV1.Timeline {
        var timeline = GlimpseWidgetV1.Timeline()
        timeline.entries = entries.map(\.wire)
        switch policy {
        case .atEnd: timeline.reloadPolicy = .atEnd
        case .never: timeline.reloadPolicy = .never
        case .after(let date): timeline.reloadPolicy = .after(GoogleProtobuf.Timestamp(date))
        }
        return timeline
    }
}

extension TimelineEngine.TimelineEntry {
    package init(_ wire: GlimpseWidgetV1.TimelineEntry, field: String) throws(InvalidField) {
        guard let date = wire.date else { throw InvalidField(field + ".date", "an entry needs a date") }
        let relevance = try wire.relevance.map { r throws(InvalidField) in
            guard r.score.isFinite else { throw InvalidField(field + ".relevance.score", "must be finite") }
            return EntryRelevance(
                score: r.score,
                duration: try r.duration.map { d throws(InvalidField) in
                    try d.timeInterval(field: field + ".relevance.duration")
                } ?? 0)
        }
        let content: [UInt8]
        do { content = try wire.view.map { try $0.serializedBytes() } ?? [] } catch {
            throw InvalidField(field + ".view", "cannot be encoded: \(error)")
        }
        if let view = wire.view,
            let violation = ContentLimits.violation(of: view, bytes: content.count + wire.widgetUrl.utf8.count)
        {
            throw InvalidField(field + ".view", violation)
        }
        self.init(
            date: try date.date(field: field + ".date"), relevance: relevance, content: content,
            url: wire.widgetUrl.isEmpty ? nil : wire.widgetUrl)
    }

    /// The entry as the wire carries it; its view is decoded from the stored bytes.
    package var wire: GlimpseWidgetV1.TimelineEntry {
        var entry = GlimpseWidgetV1.TimelineEntry()
        entry.date = GoogleProtobuf.Timestamp(date)
        if let relevance {
            var r = GlimpseWidgetV1.TimelineEntryRelevance()
            r.score = relevance.score
            r.duration = GoogleProtobuf.Duration(seconds: relevance.duration)
            entry.relevance = r
        }
        // Stored bytes came from a view this service encoded, so they decode.
        entry.view = content.isEmpty ? nil : try? GlimpseWidgetV1.View(serializedBytes: content)
        entry.widgetUrl = url ?? ""
        return entry
    }
}
