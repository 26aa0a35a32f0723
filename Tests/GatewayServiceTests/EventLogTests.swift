import Foundation
import GatewayService
import GlimpseMessages
import ProtoMapping
import Testing

@Suite struct EventLogTests {
    static func event(_ kind: String, at seconds: Double, bundle: String = "") -> GlimpseGatewayV1.Event {
        var event = GlimpseGatewayV1.Event()
        event.kind = kind
        event.bundleId = bundle
        event.at = GoogleProtobuf.Timestamp(Date(timeIntervalSince1970: seconds))
        return event
    }

    @Test func numbersEventsInCommitOrderAndPagesOn() {
        let log = EventLog()
        for i in 0..<5 { log.append(Self.event("k\(i)", at: Double(i)), source: .gateway) }
        #expect(log.list(after: 0, limit: 100, filter: .init()).map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(log.list(after: 2, limit: 2, filter: .init()).map(\.kind) == ["k2", "k3"])
        #expect(log.list(after: 5, limit: 10, filter: .init()).isEmpty)
        #expect(log.list(after: 0, limit: 10, filter: .init(kinds: ["k4"])).map(\.sequence) == [5])
    }

    @Test func heldEventsCommitByInstantThenSourceThenArrival() {
        let log = EventLog()
        log.hold()
        log.append(Self.event("activity-at-2", at: 2), source: .activity)
        log.append(Self.event("timeline-at-2", at: 2), source: .timeline)
        log.append(Self.event("timeline-at-1", at: 1), source: .timeline)
        log.append(Self.event("timeline-at-2-later", at: 2), source: .timeline)
        #expect(log.list(after: 0, limit: 10, filter: .init()).isEmpty)
        log.release()
        #expect(log.list(after: 0, limit: 10, filter: .init()).map(\.kind)
                == ["timeline-at-1", "timeline-at-2", "timeline-at-2-later", "activity-at-2"])
        log.append(Self.event("after", at: 0), source: .gateway)
        #expect(log.list(after: 4, limit: 10, filter: .init()).map(\.kind) == ["after"])
    }

    @Test func keepsAtMostItsCapacity() {
        let log = EventLog(capacity: 3)
        for i in 0..<10 { log.append(Self.event("k\(i)", at: Double(i)), source: .gateway) }
        #expect(log.list(after: 0, limit: 100, filter: .init()).map(\.sequence) == [8, 9, 10])
        #expect(log.list(after: 8, limit: 100, filter: .init()).map(\.sequence) == [9, 10])
    }

    @Test func followersGetTheBacklogThenLiveEventsFiltered() async {
        let log = EventLog()
        log.append(Self.event("a", at: 0, bundle: "x"), source: .gateway)
        log.append(Self.event("b", at: 0, bundle: "y"), source: .gateway)
        let stream = log.follow(after: 0, filter: .init(bundleID: "x"))
        log.append(Self.event("c", at: 0, bundle: "x"), source: .gateway)
        log.finish()
        var seen: [String] = []
        for await event in stream { seen.append(event.kind) }
        #expect(seen == ["a", "c"])
    }

    @Test func aFollowerTooFarBehindIsEndedNotSkipped() async {
        let log = EventLog()
        let stream = log.follow(after: 0, filter: .init(), backlogLimit: 2)
        for i in 0..<5 { log.append(Self.event("k\(i)", at: 0), source: .gateway) }
        var seen: [UInt64] = []
        for await event in stream { seen.append(event.sequence) }
        #expect(seen == [1, 2])
    }
}
