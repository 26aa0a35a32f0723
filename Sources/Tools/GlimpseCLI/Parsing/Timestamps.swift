package import GlimpseMessages

/// ISO 8601 in UTC, without Foundation's formatters (no locale, no calendar surprises):
/// `2026-01-01T09:00:00Z`, with `.123` (or 6 or 9 digits) when the instant has a fraction.
package enum ISO8601Text {
    package struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        package var text: String
        package var description: String {
            "invalid date \"\(text)\": expected ISO 8601, e.g. 2026-01-01T09:00:00Z or 2026-01-01T10:00:00+01:00"
        }
    }

    package static func format(_ timestamp: GoogleProtobuf.Timestamp) -> String {
        format(seconds: timestamp.seconds, nanos: timestamp.nanos)
    }

    /// `-` for an absent timestamp.
    package static func format(_ timestamp: GoogleProtobuf.Timestamp?) -> String {
        timestamp.map { format($0) } ?? "-"
    }

    package static func format(seconds: Int64, nanos: Int32) -> String {
        let days = floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if nanos > 0 && nanos < 1_000_000_000 {
            if nanos % 1_000_000 == 0 {
                text += "." + pad(Int64(nanos / 1_000_000), 3)
            } else if nanos % 1_000 == 0 {
                text += "." + pad(Int64(nanos / 1_000), 6)
            } else {
                text += "." + pad(Int64(nanos), 9)
            }
        }
        return text + "Z"
    }

    /// `2026-01-01T09:00:00Z`, `2026-01-01T10:00:00.5+01:00`, `2026-01-01 09:00Z`,
    /// `2026-01-01T09:00:00` (no zone: UTC) and `2026-01-01` (midnight UTC).
    package static func parse(_ text: String) throws(Invalid) -> GoogleProtobuf.Timestamp {
        let invalid = Invalid(text: text)
        let chars = Array(text.trimmingCharacters(in: " ").utf8)
        var index = 0
        func digits(_ count: Int) -> Int64? {
            guard index + count <= chars.count else { return nil }
            var value: Int64 = 0
            for i in index..<(index + count) {
                guard chars[i] >= 0x30, chars[i] <= 0x39 else { return nil }
                value = value * 10 + Int64(chars[i] - 0x30)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < chars.count, chars[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { throw invalid }
        var secondOfDay: Int64 = 0
        var nanos: Int64 = 0
        var offset: Int64 = 0
        if index < chars.count {
            guard chars[index] == 0x54 || chars[index] == 0x74 || chars[index] == 0x20 else { throw invalid }
            index += 1
            guard let hour = digits(2), expect(0x3A), let minute = digits(2), hour < 24, minute < 60 else {
                throw invalid
            }
            var second: Int64 = 0
            if expect(0x3A) {
                guard let s = digits(2), s < 60 else { throw invalid }
                second = s
                if expect(0x2E) || expect(0x2C) {
                    var count = 0
                    while index < chars.count, chars[index] >= 0x30, chars[index] <= 0x39 {
                        if count < 9 { nanos = nanos * 10 + Int64(chars[index] - 0x30) }
                        count += 1
                        index += 1
                    }
                    guard count > 0 else { throw invalid }
                    for _ in min(count, 9)..<9 { nanos *= 10 }
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if index < chars.count {
                if chars[index] == 0x5A || chars[index] == 0x7A {
                    index += 1
                } else if chars[index] == 0x2B || chars[index] == 0x2D {
                    let sign: Int64 = chars[index] == 0x2D ? -1 : 1
                    index += 1
                    guard let offsetHours = digits(2), offsetHours < 24 else { throw invalid }
                    _ = expect(0x3A)
                    guard let offsetMinutes = digits(2), offsetMinutes < 60 else { throw invalid }
                    offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
                } else {
                    throw invalid
                }
            }
        }
        guard index == chars.count else { throw invalid }
        var timestamp = GoogleProtobuf.Timestamp()
        timestamp.seconds = days(fromCivil: year, month, day) * 86_400 + secondOfDay - offset
        timestamp.nanos = Int32(nanos)
        return timestamp
    }

    // MARK: Civil calendar (proleptic Gregorian; H. Hinnant's algorithms)

    static func civil(fromDays z: Int64) -> (Int64, Int64, Int64) {
        let z = z + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension GoogleProtobuf.Timestamp {
    /// Seconds since 1970 as a Double (for differences and comparisons).
    var secondsSince1970: Double { Double(seconds) + Double(nanos) / 1e9 }
}
