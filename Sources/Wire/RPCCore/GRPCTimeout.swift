/// `grpc-timeout`: at most eight ASCII digits and a unit, H M S m u n.
public enum GRPCTimeout {
    /// The duration a header value names; nil when malformed.
    public static func parse<Bytes: Collection<UInt8>>(_ value: Bytes) -> Duration? {
        guard value.count >= 2, value.count <= 9 else { return nil }
        var amount: Int64 = 0
        var index = value.startIndex
        for _ in 0..<(value.count - 1) {
            let char = value[index]
            guard char >= UInt8(ascii: "0"), char <= UInt8(ascii: "9") else { return nil }
            amount = amount * 10 + Int64(char - UInt8(ascii: "0"))
            index = value.index(after: index)
        }
        switch value[index] {
        case UInt8(ascii: "H"): return .seconds(amount * 3600)
        case UInt8(ascii: "M"): return .seconds(amount * 60)
        case UInt8(ascii: "S"): return .seconds(amount)
        case UInt8(ascii: "m"): return .milliseconds(amount)
        case UInt8(ascii: "u"): return .microseconds(amount)
        case UInt8(ascii: "n"): return .nanoseconds(amount)
        default: return nil
        }
    }

    public static func parse(_ value: String) -> Duration? { parse(Array(value.utf8)) }

    /// The header value for `duration`: the finest unit whose amount fits in eight digits,
    /// rounded up so that the peer never sees a shorter timeout than ours. Zero or
    /// negative durations become `1n` (already expired, but still a valid value).
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, seconds > 0 || attoseconds > 0 else { return "1n" }
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let totalNanos = nanos.overflow ? Int64.max : nanos.partialValue &+ (attoseconds + 999_999_999) / 1_000_000_000
        let max: Int64 = 99_999_999
        let units: [(Int64, Character)] = [
            (1, "n"), (1_000, "u"), (1_000_000, "m"), (1_000_000_000, "S"),
            (60_000_000_000, "M"), (3_600_000_000_000, "H"),
        ]
        for (scale, unit) in units {
            let amount = totalNanos / scale + (totalNanos % scale == 0 ? 0 : 1)
            if amount <= max { return "\(amount)\(unit)" }
        }
        return "\(max)H"
    }
}
