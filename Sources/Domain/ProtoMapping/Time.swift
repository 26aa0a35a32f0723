#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseMessages

/// google.protobuf.Timestamp and Duration as the engines' `Date` and `TimeInterval`.
extension GoogleProtobuf.Timestamp {
    /// The earliest and latest instants the Timestamp type allows (0001-01-01 to 9999-12-31).
    static let validSeconds: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    package init(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        var whole = seconds.rounded(.down)
        var nanos = ((seconds - whole) * 1e9).rounded()
        if nanos >= 1e9 {
            whole += 1
            nanos -= 1e9
        }
        self.init()
        self.seconds = Int64(whole)
        self.nanos = Int32(nanos)
    }

    /// The instant, or `InvalidField` naming `field` when it is outside the type's range.
    package func date(field: String) throws(InvalidField) -> Date {
        guard Self.validSeconds.contains(seconds) else {
            throw InvalidField(field, "seconds \(seconds) outside 0001-01-01..9999-12-31")
        }
        guard (0..<1_000_000_000).contains(nanos) else { throw InvalidField(field, "nanos \(nanos) outside 0..<1e9") }
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1e9)
    }
}

extension GoogleProtobuf.Duration {
    package init(seconds interval: TimeInterval) {
        self.init()
        let whole = interval.rounded(.towardZero)
        seconds = Int64(whole)
        nanos = Int32(((interval - whole) * 1e9).rounded())
    }

    /// Seconds, or `InvalidField` naming `field` when seconds and nanos disagree in sign or
    /// nanos are out of range.
    package func timeInterval(field: String) throws(InvalidField) -> TimeInterval {
        guard abs(nanos) < 1_000_000_000, seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0) else {
            throw InvalidField(field, "invalid duration (\(seconds) s, \(nanos) ns)")
        }
        return Double(seconds) + Double(nanos) / 1e9
    }
}
