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
        #expect(
            log.list(after: 0, limit: 10, filter: .init()).map(\.kind)
                == ["timeline-at-1", "timeline-at-2", "timeline-at-2-later", "activity-at-2"])
        log.append(Self.event("after", at: 0), source: .gateway)
        #expect(log.list(after: 4, limit: 10, filter: .init()).map(\.kind) == ["after"])
    }

    @Test("an event appended while the last hold is released is committed, not left held for the next release")
    func noEventIsLeftHeldAcrossARelease() async {
        let log = EventLog()
        let events = 20_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<events {
                    log.hold()
                    log.release()
                }
            }
            group.addTask {
                for i in 0..<events { log.append(Self.event("e\(i)", at: 0), source: .timeline) }
            }
        }
        // Nothing holds the log now: every event is committed.
        #expect(log.lastSequence == UInt64(events))
    }

    @Test func keepsAtMostItsCapacity() {
        let log = EventLog(capacity: 3)
        for i in 0..<10 { log.append(Self.event("k\(i)", at: Double(i)), source: .gateway) }
        #expect(log.list(after: 0, limit: 100, filter: .init()).map(\.sequence) == [8, 9, 10])
        #expect(log.list(after: 8, limit: 100, filter: .init()).map(\.sequence) == [9, 10])
    }

    /// Every event a follower reads until it ends (nil) or falls behind (the error).
    static func drain(
        _ follower: EventFollower
    ) async -> (events: [GlimpseGatewayV1.Event], behind: EventFollower.FellBehind?) {
        var events: [GlimpseGatewayV1.Event] = []
        do {
            while let page = try await follower.next(limit: 2) { events += page }
            return (events, nil)
        } catch {
            return (events, error as? EventFollower.FellBehind)
        }
    }

    @Test func followersGetTheBacklogThenLiveEventsFiltered() async {
        let log = EventLog()
        log.append(Self.event("a", at: 0, bundle: "x"), source: .gateway)
        log.append(Self.event("b", at: 0, bundle: "y"), source: .gateway)
        let follower = log.follow(after: 0, filter: .init(bundleID: "x"))
        log.append(Self.event("c", at: 0, bundle: "x"), source: .gateway)
        log.finish()
        #expect(await Self.drain(follower).events.map(\.kind) == ["a", "c"])
    }

    @Test func aFollowerWaitsForTheNextEventItMatches() async throws {
        let log = EventLog()
        let follower = log.follow(after: 0, filter: .init(kinds: ["wanted"]))
        async let next = follower.next()
        for i in 0..<3 { log.append(Self.event("other\(i)", at: 0), source: .gateway) }
        log.append(Self.event("wanted", at: 0), source: .gateway)
        #expect(try await next?.map(\.kind) == ["wanted"])
    }

    @Test(
        "a follower more than its lag behind what came after it began is ended, not skipped: it reads what it had, then learns where to follow again"
    )
    func aFollowerTooFarBehindIsEndedNotSkipped() async {
        let log = EventLog()
        for i in 0..<10 { log.append(Self.event("history\(i)", at: 0), source: .gateway) }
        let follower = log.follow(after: 0, filter: .init(), maxLag: 3)
        // History is not lag: the ten events before it began are read whatever maxLag says.
        let history = try? await follower.next(limit: 4)
        #expect(history?.map(\.sequence) == [1, 2, 3, 4])
        for i in 0..<4 { log.append(Self.event("live\(i)", at: 0), source: .gateway) }  // lag 4 > 3
        let (events, behind) = await Self.drain(follower)
        #expect(events.isEmpty)
        #expect(behind == EventFollower.FellBehind(lastRead: 4))
    }

    @Test func aFollowerWithinItsLagReadsEverything() async {
        let log = EventLog()
        let follower = log.follow(after: 0, filter: .init(), maxLag: 3)
        for i in 0..<3 { log.append(Self.event("k\(i)", at: 0), source: .gateway) }
        log.finish()
        let (events, behind) = await Self.drain(follower)
        #expect(events.map(\.sequence) == [1, 2, 3])
        #expect(behind == nil)
    }

    @Test("a follower whose unread events the log dropped is ended")
    func eventsDroppedUnderAFollower() async throws {
        let log = EventLog(capacity: 3)
        for i in 0..<3 { log.append(Self.event("k\(i)", at: 0), source: .gateway) }
        let follower = log.follow(after: 0, filter: .init(), maxLag: 100)
        #expect(try await follower.next(limit: 1)?.map(\.sequence) == [1])
        for i in 0..<3 { log.append(Self.event("more\(i)", at: 0), source: .gateway) }  // 2 and 3 are gone
        #expect(await Self.drain(follower).behind == EventFollower.FellBehind(lastRead: 1))
    }

    @Test("a hundred followers of a full log hold no copy of it, and one that is cancelled stops waiting")
    func followersShareTheLog() async throws {
        let log = EventLog(capacity: 1000)
        for i in 0..<1000 { log.append(Self.event("k\(i)", at: 0), source: .gateway) }
        let followers = (0..<100).map { _ in log.follow(after: 0, filter: .init()) }
        #expect(log.followerCount == 100)
        let waiting = Task { try await followers[0].next(limit: 1) }
        #expect(try await waiting.value?.first?.sequence == 1)
        let caughtUp = log.follow(after: 1000, filter: .init())
        let cancelled = Task { try await caughtUp.next() }
        cancelled.cancel()
        #expect(await (try? cancelled.value) == nil)
        for follower in followers { follower.close() }
        caughtUp.close()
        #expect(log.followerCount == 0)
    }

    /// An entry change as the log gets them: a widget's whole entry, with its view.
    static func entryChanged(_ n: Int, bundle: String = "com.example.counter") -> GlimpseGatewayV1.Event {
        var text = GlimpseWidgetV1.View()
        text.kind = .text(.init(content: "n=\(n)\u{0}after a NUL"))
        var stack = GlimpseWidgetV1.Stack()
        stack.children = [text, text]
        var entry = GlimpseWidgetV1.TimelineEntry()
        entry.date = GoogleProtobuf.Timestamp(Date(timeIntervalSince1970: Double(n)))
        entry.view = GlimpseWidgetV1.View()
        entry.view?.kind = .stack(stack)
        var change = GlimpseGatewayV1.Event.EntryChanged()
        change.placementId = UInt64(n)
        change.kind = "Counter"
        change.entry = entry
        var event = Self.event("entry_changed", at: Double(n), bundle: bundle)
        event.summary = "Counter shows entry \(n)"
        event.detail = .entryChanged(change)
        return event
    }

    @Test("a kept event reads back as it was committed, every field (its text's NUL too)")
    func keptEventsReadBackWhole() async throws {
        let log = EventLog()
        var committed: [GlimpseGatewayV1.Event] = []
        for n in 1...50 {
            var event = n % 2 == 0 ? Self.entryChanged(n) : Self.event("clock_moved", at: Double(n), bundle: "")
            event.sequence = 999  // the log numbers its events, whatever they came with
            log.append(event, source: .gateway)
            event.sequence = UInt64(n)
            committed.append(event)
        }
        #expect(log.list(after: 0, limit: 100, filter: .init()) == committed)
        #expect(
            log.list(after: 0, limit: 100, filter: .init(kinds: ["entry_changed"], bundleID: "com.example.counter"))
                == committed.filter { $0.kind == "entry_changed" })
        let follower = log.follow(after: 10, filter: .init(kinds: ["entry_changed"]))
        log.finish()
        #expect(
            await Self.drain(follower).events == committed.filter { $0.kind == "entry_changed" && $0.sequence > 10 })
    }

    @Test("the log's bytes follow what it keeps, not what it was given: its oldest chunks go as it rolls over")
    func keptBytesStayBounded() {
        let log = EventLog(capacity: 1_000)
        for n in 1...1_000 { log.append(Self.entryChanged(n), source: .gateway) }
        let full = log.keptBytes
        for n in 1_001...60_000 { log.append(Self.entryChanged(n), source: .gateway) }
        // The same number of events kept, in a few more chunks at most (one being filled, one being emptied).
        #expect(log.keptBytes <= full + 2 * EventLog.chunkBytes)
        #expect(
            log.list(after: 0, limit: 5, filter: .init()).map(\.sequence) == [59_001, 59_002, 59_003, 59_004, 59_005])
        #expect(log.list(after: 59_999, limit: 5, filter: .init()).map(\.sequence) == [60_000])
    }
}
