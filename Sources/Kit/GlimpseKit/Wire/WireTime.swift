package import Foundation
package import GlimpseMessages

extension GoogleProtobuf.Timestamp {
    package init(date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        self.init(seconds: Int64(seconds), nanos: Int32(((date.timeIntervalSince1970 - seconds) * 1e9).rounded(.down)))
    }

    var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1e9)
    }
}

extension Optional where Wrapped == GoogleProtobuf.Timestamp {
    /// The device clock a request carries; the wall clock when it carries none.
    var dateOrNow: Date { self?.date ?? Date() }
}

extension Date {
    package func adding(minutes: Int) -> Date { addingTimeInterval(Double(minutes) * 60) }
}
