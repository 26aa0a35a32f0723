import Foundation
internal import GlimpseMessages

/// What timers and dates read at the device clock's `now` (en_US, the device's time zone),
/// as SwiftUI's `Text(timerInterval:)` and `Text(date, style:)` show them.
struct Clock {
    var now: Date
    var timeZone: TimeZone

    static func date(_ t: GoogleProtobuf.Timestamp?) -> Date {
        guard let t else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: Double(t.seconds) + Double(t.nanos) / 1e9)
    }

    /// "12:34", "1:02:03": counting down to the end or up from the start, held within the interval.
    func timer(_ interval: GlimpseWidgetV1.DateInterval?, countsDown: Bool, showsHours: Bool = true) -> String {
        let start = Self.date(interval?.start)
        let end = Self.date(interval?.end)
        let duration = max(0, end.timeIntervalSince(start))
        let seconds: Double
        if countsDown {
            seconds = min(duration, max(0, end.timeIntervalSince(now))).rounded(.up)
        } else {
            seconds = min(duration, max(0, now.timeIntervalSince(start))).rounded(.down)
        }
        return Self.clockText(Int(seconds), showsHours: showsHours)
    }

    static func clockText(_ total: Int, showsHours: Bool = true) -> String {
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if showsHours && h > 0 {
            return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)"
        }
        return "\(showsHours ? m : total / 60):\(ss)"
    }

    /// The fraction of `interval` elapsed at `now` (or remaining, counting down), 0...1.
    func fraction(_ interval: GlimpseWidgetV1.DateInterval?, countsDown: Bool) -> Double {
        let start = Self.date(interval?.start)
        let end = Self.date(interval?.end)
        let duration = end.timeIntervalSince(start)
        guard duration > 0 else { return countsDown ? 0 : 1 }
        let elapsed = min(1, max(0, now.timeIntervalSince(start) / duration))
        return countsDown ? 1 - elapsed : elapsed
    }

    func text(_ date: Date, style: GlimpseWidgetV1.DateTextStyle) -> String {
        switch style {
        case .date: return dateText(date)
        case .relative: return relative(date)
        case .offset: return offset(date)
        case .timer:
            let delta = Int(abs(date.timeIntervalSince(now)).rounded(.down))
            return Self.clockText(delta)
        default: return time(date)
        }
    }

    private var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        return c
    }

    /// "10:42 AM"
    func time(_ date: Date) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        let hour = c.hour ?? 0, minute = c.minute ?? 0
        let h12 = hour % 12 == 0 ? 12 : hour % 12
        return "\(h12):\(minute < 10 ? "0" : "")\(minute) \(hour < 12 ? "AM" : "PM")"
    }

    /// "10:42" (the Lock Screen clock)
    func clock(_ date: Date) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        let hour = c.hour ?? 0, minute = c.minute ?? 0
        let h12 = hour % 12 == 0 ? 12 : hour % 12
        return "\(h12):\(minute < 10 ? "0" : "")\(minute)"
    }

    /// "November 24, 2026"
    func dateText(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return "\(Self.months[(c.month ?? 1) - 1]) \(c.day ?? 1), \(c.year ?? 1970)"
    }

    /// "Tuesday, November 24" (the Lock Screen's date line)
    func weekdayDate(_ date: Date) -> String {
        let c = calendar.dateComponents([.weekday, .month, .day], from: date)
        return "\(Self.weekdays[(c.weekday ?? 1) - 1]), \(Self.months[(c.month ?? 1) - 1]) \(c.day ?? 1)"
    }

    /// "2 hr, 5 min": the distance to `date`, in its two largest units.
    func relative(_ date: Date) -> String {
        let total = Int(abs(date.timeIntervalSince(now)).rounded(.down))
        let units: [(Int, String, String)] = [
            (86400, "day", "days"), (3600, "hr", "hr"), (60, "min", "min"), (1, "sec", "sec"),
        ]
        var parts: [String] = []
        var rest = total
        for (size, one, many) in units where parts.count < 2 {
            let n = rest / size
            if n > 0 || (!parts.isEmpty) {
                if n > 0 { parts.append("\(n) \(n == 1 ? one : many)") } else { break }
                rest -= n * size
            }
        }
        return parts.isEmpty ? "0 sec" : parts.joined(separator: ", ")
    }

    /// "+2 hours", "-5 minutes": the signed offset in its largest unit.
    func offset(_ date: Date) -> String {
        let delta = date.timeIntervalSince(now)
        let total = Int(abs(delta).rounded(.down))
        let sign = delta < 0 ? "-" : "+"
        let units: [(Int, String)] = [(86400, "day"), (3600, "hour"), (60, "minute"), (1, "second")]
        for (size, name) in units where total >= size {
            let n = total / size
            return "\(sign)\(n) \(name)\(n == 1 ? "" : "s")"
        }
        return "+0 seconds"
    }

    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
