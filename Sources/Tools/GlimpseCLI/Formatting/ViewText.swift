package import GlimpseMessages
import GlimpseVocabulary

/// A widget's view tree as text, the way a person reads the widget: Text contents and
/// labels as they are, a VStack one line per child, an HStack one line of its children,
/// Buttons as `[Check in]`, Toggles as `[x] label` / `[ ] label`, Links as `<label>`,
/// gauges and progress views as their labels and a percentage, timer and date texts as
/// the clock shows them at `now` (the entry's date). Images, symbols, shapes, spacers and
/// dividers draw nothing in text.
package enum ViewText {
    /// The lines of `view`; `now` is seconds since 1970 (nil: timers show their end date).
    package static func lines(_ view: GlimpseWidgetV1.View, now: Double? = nil) -> [String] {
        switch view.kind {
        case .text(let text)?:
            return text.content.isEmpty
                ? [] : text.content.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case .stack(let stack)?:
            let children = stack.children.map { lines($0, now: now) }
            if stack.axis == .horizontal, children.allSatisfy({ $0.count <= 1 }) {
                let line = children.compactMap(\.first).filter { !$0.isEmpty }.joined(separator: " ")
                return line.isEmpty ? [] : [line]
            }
            return children.flatMap { $0 }
        case .label(let label)?:
            return label.title.map { lines($0, now: now) } ?? []
        case .button(let button)?:
            return ["[" + inline(button.label, now: now) + "]"]
        case .toggle(let toggle)?:
            let label = inline(toggle.label, now: now)
            return [(toggle.isOn ? "[x]" : "[ ]") + (label.isEmpty ? "" : " " + label)]
        case .link(let link)?:
            let label = inline(link.label, now: now)
            return ["<" + (label.isEmpty ? link.destination : label) + ">"]
        case .gauge(let gauge)?:
            var parts: [String] = []
            let label = inline(gauge.label, now: now)
            if !label.isEmpty { parts.append(label) }
            let current = inline(gauge.currentValueLabel, now: now)
            if !current.isEmpty {
                parts.append(current)
            } else {
                let minimum = gauge.minimum ?? 0
                let maximum = gauge.maximum ?? 1
                parts.append(percent(maximum > minimum ? (gauge.value - minimum) / (maximum - minimum) : 0))
            }
            return [parts.joined(separator: " ")]
        case .progress(let progress)?:
            var parts: [String] = []
            let label = inline(progress.label, now: now)
            if !label.isEmpty { parts.append(label) }
            switch progress.progress {
            case .fraction(let fraction)?:
                let total = fraction.total == 0 ? 1 : fraction.total
                parts.append(percent(fraction.value / total))
            case .timerInterval(let interval)?:
                parts.append(timer(interval, countsDown: progress.countsDown, showsHours: true, now: now))
            case nil:
                break
            }
            return parts.isEmpty ? [] : [parts.joined(separator: " ")]
        case .timerText(let timerText)?:
            guard let interval = timerText.timerInterval else { return [] }
            return [
                timer(interval, countsDown: timerText.countsDown, showsHours: timerText.showsHours ?? true, now: now)
            ]
        case .dateText(let dateText)?:
            guard let date = dateText.date else { return [] }
            return [self.date(date, style: dateText.style, now: now)]
        case .image?, .symbol?, .spacer?, .divider?, .shape?, .gradient?, .accessoryWidgetBackground?, nil:
            return []
        }
    }

    /// The view on one line (its lines joined with spaces).
    package static func inline(_ view: GlimpseWidgetV1.View?, now: Double? = nil) -> String {
        guard let view else { return "" }
        return lines(view, now: now).filter { !$0.isEmpty }.joined(separator: " ")
    }

    static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "0%" }
        return "\(Int((min(max(fraction, 0), 1) * 100).rounded()))%"
    }

    /// Text(timerInterval:countsDown:) at `now`: `4:59`, `1:02:03` (or `62:03` without hours).
    static func timer(
        _ interval: GlimpseWidgetV1.DateInterval, countsDown: Bool, showsHours: Bool, now: Double?
    ) -> String {
        let start = interval.start?.secondsSince1970 ?? 0
        let end = interval.end?.secondsSince1970 ?? start
        guard let now else {
            return countsDown
                ? "until " + ISO8601Text.format(interval.end) : "since " + ISO8601Text.format(interval.start)
        }
        let clamped = min(max(now, start), end)
        let seconds = countsDown ? end - clamped : clamped - start
        return clock(Int(seconds.rounded(.down)), showsHours: showsHours)
    }

    static func clock(_ seconds: Int, showsHours: Bool) -> String {
        let s = max(seconds, 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if showsHours, s >= 3600 { return "\(s / 3600):\(two(s % 3600 / 60)):\(two(s % 60))" }
        return "\(s / 60):\(two(s % 60))"
    }

    /// Text(date, style:) in UTC at `now`.
    static func date(_ date: GoogleProtobuf.Timestamp, style: GlimpseWidgetV1.DateTextStyle, now: Double?) -> String {
        let iso = ISO8601Text.format(seconds: date.seconds, nanos: 0)
        switch style {
        case .time:
            let start = iso.index(iso.startIndex, offsetBy: 11)
            return String(iso[start..<iso.index(start, offsetBy: 5)])
        case .date:
            return String(iso.prefix(10))
        case .relative, .offset:
            guard let now else { return iso }
            let delta = date.secondsSince1970 - now
            let span = DurationText.format(seconds: abs(delta).rounded())
            if style == .offset { return (delta < 0 ? "-" : "+") + span }
            return delta < 0 ? "\(span) ago" : "in \(span)"
        case .timer:
            guard let now else { return iso }
            return clock(Int(abs(date.secondsSince1970 - now).rounded(.down)), showsHours: true)
        case .unrecognized:
            return iso
        }
    }
}
