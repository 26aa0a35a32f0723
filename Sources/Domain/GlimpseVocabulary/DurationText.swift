/// Durations as people type them: `6h`, `90m`, `1d2h`, `30s`, `1h30m`, `1.5h`, `250ms`
/// (units d, h, m, s, ms; each part a number and a unit).
package enum DurationText {
    package struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        package var text: String
        package var reason: String
        package var description: String { "invalid duration \"\(text)\": \(reason)" }
    }

    static let example = "expected a number and a unit (d, h, m, s), e.g. 6h, 90m, 1d2h, 30s"

    /// The duration in seconds. A leading `-` is accepted only with `allowNegative`.
    package static func parse(_ text: String, allowNegative: Bool = false) throws(Invalid) -> Double {
        var rest = Substring(text)
        while rest.first == " " { rest = rest.dropFirst() }
        while rest.last == " " { rest = rest.dropLast() }
        var sign = 1.0
        if rest.first == "-" {
            guard allowNegative else { throw Invalid(text: text, reason: "a duration cannot be negative here") }
            sign = -1
            rest = rest.dropFirst()
        } else if rest.first == "+" {
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { throw Invalid(text: text, reason: example) }
        var total = 0.0
        var seen = Set<String>()
        while !rest.isEmpty {
            let number = rest.prefix(while: { $0.isASCII && ($0.isNumber || $0 == ".") })
            guard !number.isEmpty, let value = Double(number), value.isFinite else {
                throw Invalid(text: text, reason: example)
            }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix(while: { $0.isLetter })
            rest = rest.dropFirst(unit.count)
            let scale: Double
            switch unit.lowercased() {
            case "d": scale = 86_400
            case "h": scale = 3_600
            case "m": scale = 60
            case "s": scale = 1
            case "ms": scale = 0.001
            case "": throw Invalid(text: text, reason: "\"\(number)\" has no unit; " + example)
            default: throw Invalid(text: text, reason: "unknown unit \"\(unit)\"; " + example)
            }
            guard seen.insert(unit.lowercased()).inserted else {
                throw Invalid(text: text, reason: "the unit \"\(unit)\" appears twice")
            }
            total += value * scale
        }
        return sign * total
    }

    /// `93784` → `1d2h3m4s`; `0` → `0s`; fractions of a second to the millisecond.
    package static func format(seconds: Double) -> String {
        guard seconds.isFinite else { return "\(seconds)s" }
        if seconds < 0 { return "-" + format(seconds: -seconds) }
        let totalMillis = Int64((seconds * 1000).rounded())
        var millis = totalMillis % 1000
        var whole = totalMillis / 1000
        let days = whole / 86_400
        whole %= 86_400
        let hours = whole / 3_600
        whole %= 3_600
        let minutes = whole / 60
        let secs = whole % 60
        var text = ""
        if days > 0 { text += "\(days)d" }
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if secs > 0 || millis > 0 || text.isEmpty {
            if millis > 0 {
                var fraction = String(millis)
                fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                millis = 0
                text += "\(secs).\(fraction)s"
            } else {
                text += "\(secs)s"
            }
        }
        return text
    }
}
