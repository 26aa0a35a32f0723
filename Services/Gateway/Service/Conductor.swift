#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseMessages
import EngineHosting
import GlimpseRPC
import Logging
import ProtoMapping
package import RPCCore
import ServiceKit
import Synchronization

/// One clock for the stack (ARCHITECTURE.md, "Time"). With the services on
/// `--clock manual`, the gateway moves them all: `advance(to:)` steps through every
/// instant at which a service has work, in order, and returns when the screen shows the
/// result. Following real time is the same advance, made every `tick` to wall time plus
/// an offset; frozen, time moves only when told.
///
/// A step: glimpse-intent, -activity and -asset call glimpse-timeline (reloads) but
/// glimpse-timeline calls none of them, so glimpse-timeline is moved alone through its own
/// deadlines up to the next instant another service has work (one `AdvanceTo` fires them
/// all in order); then every service is moved to that instant, glimpse-timeline last again
/// (to carry out the reloads the others asked for there), and the gateway waits until it
/// has received the events the services report (their watermarks) before it commits the
/// step's events to the log in their canonical order.
package final class Conductor: Sendable {
    package enum Mode: Sendable {
        /// The services run on their system clocks; the gateway only reads time.
        case system
        /// The services run on `--clock manual`; the gateway conducts. `follow`: start
        /// following real time (from `start`); otherwise frozen at `start`.
        case manual(start: Date, follow: Bool)
    }

    private struct State {
        var manual: Bool
        var now: Date
        var following: Bool
        var offset: TimeInterval  // following: now - wall time
        var synced = false
    }

    private let state: Mutex<State>
    private let upstreams: Upstreams
    private let device: DeviceState
    private let log: EventLog
    private let logger: Logger
    private let steps = StepLock()
    /// Signalled when the clock starts following real time (`runFollowing` waits on it).
    private let followed = Wakeup()
    /// Runs after each step, before its events are committed (the push log poll).
    let afterStep = Mutex<(@Sendable () async -> Void)?>(nil)
    /// How long a step waits for a service's watermark to arrive before it goes on.
    /// A safety valve only (a service's events normally follow its AdvanceTo at once): long
    /// enough that a busy machine never trips it.
    package let watermarkTimeout: Duration = .seconds(120)

    init(mode: Mode, upstreams: Upstreams, device: DeviceState, log: EventLog, logger: Logger) {
        switch mode {
        case .system:
            state = Mutex(State(manual: false, now: Date(), following: true, offset: 0))
        case .manual(let start, let follow):
            state = Mutex(State(manual: true, now: start, following: follow, offset: start.timeIntervalSinceNow))
        }
        self.upstreams = upstreams
        self.device = device
        self.log = log
        self.logger = logger
    }

    package var isManual: Bool { state.withLock { $0.manual } }

    /// The device clock's now.
    package func now() -> Date {
        state.withLock { $0.manual ? $0.now : Date() }
    }

    package func clockState(steps: Int = 0, events: UInt64 = 0) -> GlimpseGatewayV1.ClockState {
        state.withLock { state in
            var answer = GlimpseGatewayV1.ClockState()
            answer.now = GoogleProtobuf.Timestamp(state.manual ? state.now : Date())
            answer.manual = state.manual
            answer.frozen = state.manual && !state.following
            if state.manual && state.following { answer.offset = GoogleProtobuf.Duration(seconds: state.offset) }
            answer.steps = UInt32(clamping: steps)
            answer.events = events
            return answer
        }
    }

    private func requireManual() throws(RPCError) {
        guard isManual else {
            throw RPCError(
                code: .failedPrecondition,
                message:
                    "the stack runs on the system clock; start the services and the gateway with --clock manual to move time"
            )
        }
    }

    package func advance(by seconds: TimeInterval) async throws(RPCError) -> GlimpseGatewayV1.ClockState {
        guard seconds >= 0, seconds.isFinite else {
            throw RPCError(code: .invalidArgument, message: "by: must not be negative (time does not go back)")
        }
        try requireManual()
        return try await steps.run { () async throws(RPCError) -> GlimpseGatewayV1.ClockState in
            try await self.sync()
            return try await self.step(to: self.now().addingTimeInterval(seconds))
        }
    }

    package func set(to target: Date) async throws(RPCError) -> GlimpseGatewayV1.ClockState {
        try requireManual()
        return try await steps.run { () async throws(RPCError) -> GlimpseGatewayV1.ClockState in
            try await self.sync()
            guard target >= self.now() else {
                throw RPCError(
                    code: .invalidArgument,
                    message:
                        "to: \(ISO8601.format(target)) is before now (\(ISO8601.format(self.now()))); time does not go back"
                )
            }
            return try await self.step(to: target)
        }
    }

    package func freeze() throws(RPCError) -> GlimpseGatewayV1.ClockState {
        try requireManual()
        state.withLock { $0.following = false }
        return clockState()
    }

    package func follow(offset: TimeInterval?) throws(RPCError) -> GlimpseGatewayV1.ClockState {
        try requireManual()
        state.withLock { state in
            // Time never goes back: a smaller offset than the current one waits for wall
            // time to catch up.
            state.offset = offset ?? state.now.timeIntervalSinceNow
            state.following = true
        }
        followed.signal()
        return clockState()
    }

    /// While following: moves the stack to wall time plus the offset every `tick`. While
    /// frozen it waits for `follow` without a timer (a gateway holds a conductor per device);
    /// on the system clock it has nothing to do.
    func runFollowing(tick: Duration) async {
        guard isManual else { return }
        while !Task.isCancelled {
            guard state.withLock({ $0.following }) else {
                await followed.wait(timeout: nil)
                continue
            }
            try? await Task.sleep(for: tick)
            let target: Date? = state.withLock { state in
                guard state.manual, state.following else { return nil }
                let target = Date().addingTimeInterval(state.offset)
                return target > state.now ? target : nil
            }
            guard let target else { continue }
            do {
                _ = try await steps.run { () async throws(RPCError) -> GlimpseGatewayV1.ClockState in
                    try await self.sync()
                    return try await self.step(to: max(target, self.now()))
                }
            } catch {
                logger.debug("following real time: \(error.message)")
            }
        }
    }

    /// Once: the stack's now is the latest of the services' (they may have been started
    /// at different instants) and every service must be on a manual clock.
    private func sync() async throws(RPCError) {
        guard !state.withLock({ $0.synced }) else { return }
        var latest = now()
        for service in Upstreams.Service.allCases {
            let answer = try await upstreams.call(service) { options in
                try await upstreams.clock(service).now(ClientRequest(message: .init()), options: options).message
            }
            guard answer.manual else {
                throw RPCError(
                    code: .failedPrecondition,
                    message:
                        "glimpse-\(service.rawValue) runs on the system clock; start it with --clock manual so the gateway can move time"
                )
            }
            if let now = answer.now.map(Date.init), now > latest { latest = now }
        }
        state.withLock { state in
            state.now = latest
            state.synced = true
        }
        logger.info("conducting the stack's clock from \(ISO8601.format(latest))")
    }

    private func nextDue(_ service: Upstreams.Service) async throws(RPCError) -> Date? {
        try await upstreams.call(service) { options in
            try await upstreams.clock(service).nextDue(ClientRequest(message: .init()), options: options).message
                .nextDue.map(Date.init)
        }
    }

    private func move(_ service: Upstreams.Service, to instant: Date) async throws(RPCError) -> UInt64 {
        var request = GlimpseClockV1.AdvanceToRequest()
        request.to = GoogleProtobuf.Timestamp(instant)
        // A step fires everything due in it, provider calls included: allow for a long one.
        return try await upstreams.call(service, timeout: .seconds(600)) { options in
            try await upstreams.clock(service).advanceTo(ClientRequest(message: request), options: options).message
                .watermark
        }
    }

    /// Steps the whole stack to `target`. Runs under `steps`.
    private func step(to target: Date) async throws(RPCError) -> GlimpseGatewayV1.ClockState {
        let from = now()
        let firstEvent = log.lastSequence
        log.hold()
        defer { log.release() }
        var count = 0
        var instant = from
        repeat {
            // The next instant any service other than glimpse-timeline has work.
            var next = target
            for service in [Upstreams.Service.intent, .activity, .asset] {
                if let due = try await nextDue(service), due > instant, due < next { next = due }
            }
            _ = try await move(.timeline, to: next)
            // glimpse-intent's and glimpse-asset's events are not followed: only
            // glimpse-timeline's and glimpse-activity's watermarks are waited for.
            _ = try await move(.intent, to: next)
            let activityMark = try await move(.activity, to: next)
            _ = try await move(.asset, to: next)
            let timelineMark = try await move(.timeline, to: next)
            state.withLock { $0.now = next }
            await waitForWatermarks(timeline: timelineMark, activity: activityMark)
            if let afterStep = afterStep.withLock({ $0 }) { await afterStep() }
            log.commitHeld()
            instant = next
            count += 1
        } while instant < target
        var moved = GlimpseGatewayV1.Event.ClockMoved()
        moved.from = GoogleProtobuf.Timestamp(from)
        moved.to = GoogleProtobuf.Timestamp(target)
        if target > from {
            log.append(
                GlimpseGatewayV1.Event(
                    at: target, summary: "clock \(ISO8601.format(from)) → \(ISO8601.format(target)) in \(count) steps",
                    detail: .clockMoved(moved)), source: .gateway)
        }
        log.commitHeld()
        return clockState(steps: count, events: log.lastSequence - firstEvent)
    }

    private func waitForWatermarks(timeline: UInt64, activity: UInt64) async {
        for (service, mark) in [(Upstreams.Service.timeline, timeline), (.activity, activity)] where mark > 0 {
            if await !device.wait(for: .sequence(service, atLeast: mark), timeout: watermarkTimeout) {
                logger.warning(
                    "glimpse-\(service.rawValue)'s events up to \(mark) did not arrive within \(watermarkTimeout); going on"
                )
            }
        }
    }
}
