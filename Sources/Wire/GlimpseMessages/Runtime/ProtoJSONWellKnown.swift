package import GlimpseJSON

/// The well-known types whose JSON is a string: `google.protobuf.Timestamp` (RFC 3339)
/// and `google.protobuf.Duration` (`"1.500s"`). Their generated conformances call these.
package enum _ProtoJSONWellKnown {
    static let minTimestampSeconds: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
    static let maxTimestampSeconds: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z
    static let maxDurationSeconds: Int64 = 315_576_000_000  // 10,000 years

    // MARK: Timestamp

    /// RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits, as protobuf writes it. A value
    /// outside Timestamp's range (years 1...9999) has no such text and is written anyway
    /// (it will not read back). Nanos outside 0..<10^9 are no timestamp at all: written as
    /// the seconds' text and the nanos apart, which the reader refuses, rather than as
    /// another, valid instant that would read back as something the writer was not given.
    package static func timestampJSON(seconds: Int64, nanos: Int32) -> JSONValue {
        guard (0..<1_000_000_000).contains(nanos) else {
            guard case .string(let text) = timestampJSON(seconds: seconds, nanos: 0) else { return .null }
            return .string("\(text) with nanos \(nanos)")
        }
        let seconds = Int128(seconds)
        let nanos = Int128(nanos)
        let days = floorDiv(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (y, m, d) = civil(fromDays: days)
        var text = y >= 0 ? pad(y, 4) : "-" + pad(-y, 4)
        text += "-\(pad(Int128(m), 2))-\(pad(Int128(d), 2))T"
        text +=
            "\(pad(Int128(secondOfDay / 3600), 2)):\(pad(Int128(secondOfDay / 60 % 60), 2)):\(pad(Int128(secondOfDay % 60), 2))"
        return .string(text + fraction(Int(nanos)) + "Z")
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.f…]` with `Z` or a `±HH:MM` offset (up to 9 fractional
    /// digits, years 0001...9999 after the offset is applied).
    package static func timestamp(
        _ value: JSONValue, _ path: String
    ) throws(ProtoJSONError) -> (seconds: Int64, nanos: Int32) {
        guard case .string(let text) = value else {
            throw ProtoJSONError(
                path: path, reason: "expected an RFC 3339 timestamp string, found \(value.protoJSONKind)")
        }
        guard let parsed = parseTimestamp(Array(text.utf8)) else {
            throw ProtoJSONError(
                path: path,
                reason:
                    "\(_ProtoJSONNumbers.quoted(text)) is not an RFC 3339 timestamp between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z"
            )
        }
        return parsed
    }

    static func parseTimestamp(_ b: [UInt8]) -> (seconds: Int64, nanos: Int32)? {
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var v = 0
            for k in i..<(i + count) {
                guard b[k] >= UInt8(ascii: "0"), b[k] <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(b[k] - UInt8(ascii: "0"))
            }
            i += count
            return v
        }
        func expect(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var nanos = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                digits += 1
                guard digits <= 9 else { return nil }
                nanos = nanos * 10 + Int(b[i] - UInt8(ascii: "0"))
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offset = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2), expect(":"), let om = number(2), oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Int64(days(fromCivil: year, month, day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        guard seconds >= minTimestampSeconds, seconds <= maxTimestampSeconds else { return nil }
        return (seconds, Int32(nanos))
    }

    // MARK: Duration

    /// Seconds with an `s` suffix and 0, 3, 6 or 9 fractional digits (`"-1.500s"`), as
    /// protobuf writes it. Out-of-range values have no such text and are written anyway
    /// (they will not read back). Mixed signs or nanos beyond ±10^9 are no duration at
    /// all: written as the two fields apart (`"5s -500000000ns"`), which the reader refuses,
    /// rather than as their sum, which would read back as something the writer was not given.
    package static func durationJSON(seconds: Int64, nanos: Int32) -> JSONValue {
        guard abs(Int64(nanos)) < 1_000_000_000, seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0) else {
            return .string("\(seconds)s \(nanos)ns")
        }
        let total = Int128(seconds) * 1_000_000_000 + Int128(nanos)
        let magnitude = total < 0 ? -total : total
        let whole = magnitude / 1_000_000_000
        let fractionNanos = Int(magnitude % 1_000_000_000)
        return .string((total < 0 ? "-" : "") + "\(whole)" + fraction(fractionNanos) + "s")
    }

    /// Reads `-?digits(.digits)?s` with up to 9 fractional digits, within ±10,000 years.
    package static func duration(
        _ value: JSONValue, _ path: String
    ) throws(ProtoJSONError) -> (seconds: Int64, nanos: Int32) {
        guard case .string(let text) = value else {
            throw ProtoJSONError(
                path: path, reason: "expected a duration string such as \"1.5s\", found \(value.protoJSONKind)")
        }
        guard let parsed = parseDuration(Array(text.utf8)) else {
            throw ProtoJSONError(
                path: path,
                reason:
                    "\(_ProtoJSONNumbers.quoted(text)) is not a duration (seconds with an \"s\" suffix, at most 9 fractional digits, within ±315576000000s)"
            )
        }
        return parsed
    }

    static func parseDuration(_ b: [UInt8]) -> (seconds: Int64, nanos: Int32)? {
        guard b.last == UInt8(ascii: "s") else { return nil }
        var i = 0
        let negative = b.first == UInt8(ascii: "-")
        if negative { i = 1 }
        let end = b.count - 1
        var seconds: Int64 = 0
        var intDigits = 0
        while i < end, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
            intDigits += 1
            guard intDigits <= 12 else { return nil }
            seconds = seconds * 10 + Int64(b[i] - UInt8(ascii: "0"))
            i += 1
        }
        guard intDigits > 0 else { return nil }
        var nanos: Int32 = 0
        if i < end, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < end, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                digits += 1
                guard digits <= 9 else { return nil }
                nanos = nanos * 10 + Int32(b[i] - UInt8(ascii: "0"))
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }
        guard i == end, seconds <= maxDurationSeconds else { return nil }
        return negative ? (-seconds, -nanos) : (seconds, nanos)
    }

    // MARK: Calendar (proleptic Gregorian, after H. Hinnant's days_from_civil)

    static func floorDiv(_ a: Int128, _ b: Int128) -> Int128 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int128) -> (year: Int128, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func pad(_ v: Int128, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// `""`, `.123`, `.123456` or `.123456789`: the fewest of 0, 3, 6 or 9 digits that
    /// hold `nanos` (0..<10^9) exactly.
    static func fraction(_ nanos: Int) -> String {
        if nanos == 0 { return "" }
        if nanos % 1_000_000 == 0 { return "." + pad(Int128(nanos / 1_000_000), 3) }
        if nanos % 1000 == 0 { return "." + pad(Int128(nanos / 1000), 6) }
        return "." + pad(Int128(nanos), 9)
    }
}
