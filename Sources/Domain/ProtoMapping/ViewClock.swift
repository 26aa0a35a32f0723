#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseMessages

extension GlimpseWidgetV1.View {
    /// When what this tree shows next changes by itself, after `now`: a timer counting
    /// (`Text(timerInterval:)`, `ProgressView(timerInterval:)`, each second of its interval),
    /// a date drawn relative to now (`.relative`, `.offset`, `.timer` styles, each second).
    /// Nil when nothing in it moves with time.
    package func nextChange(after now: Date) -> Date? {
        var next: Date?
        Self.visit(self, now: now, next: &next)
        return next
    }

    private static func visit(_ view: GlimpseWidgetV1.View, now: Date, next: inout Date?) {
        let tick = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) + 1)
        func consider(_ date: Date?) {
            guard let date, date > now else { return }
            next = min(next ?? date, date)
        }
        func counting(_ interval: GlimpseWidgetV1.DateInterval?) {
            guard let interval else { return }
            let start = interval.start.map(date) ?? .distantPast
            let end = interval.end.map(date) ?? .distantFuture
            if now < start { consider(start) } else if now < end { consider(min(tick, end)) }
        }
        switch view.kind {
        case .timerText(let timer)?: counting(timer.timerInterval)
        case .dateText(let text)?:
            switch text.style {
            case .relative, .offset, .timer: consider(tick)
            default: break
            }
        case .progress(let progress)?:
            if case .timerInterval(let interval)? = progress.progress { counting(interval) }
        default: break
        }
        for child in view.nestedViews { visit(child, now: now, next: &next) }
    }

    private static func date(_ timestamp: GoogleProtobuf.Timestamp) -> Date {
        Date(timeIntervalSince1970: Double(timestamp.seconds) + Double(timestamp.nanos) / 1e9)
    }
}
