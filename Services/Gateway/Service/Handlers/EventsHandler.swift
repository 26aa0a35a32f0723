package import GlimpseMessages
import GlimpseRPC
import Logging
package import RPCCore
import ServiceKit

/// `Events`: the event log, paged (`List`) and followed (`Follow`).
package struct EventsHandler: GlimpseGatewayV1.Events.Handler {
    let gateway: Gateway
    /// How far a follower may fall behind before its stream ends (see `EventFollower`).
    let followMaxLag: Int
    /// Followers ended for falling behind, logged with the client's address.
    let slowFollowers: RateLimitedLog

    package init(gateway: Gateway, followMaxLag: Int = EventsHandler.defaultFollowMaxLag) {
        self.gateway = gateway
        self.followMaxLag = followMaxLag
        self.slowFollowers = RateLimitedLog(logger: gateway.logger)
    }

    /// Events committed after a follower began that it may leave unread.
    package static let defaultFollowMaxLag = 10_000

    package func list(
        request: ServerRequest<GlimpseGatewayV1.ListEventsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ListEventsResponse> {
        try requireDevice(context, "reading the event log")
        let message = request.message
        guard message.limit <= 10_000 else {
            throw RPCError(code: .invalidArgument, message: "limit: at most 10,000 events per page")
        }
        let events = gateway.log.list(
            after: message.afterSequence, limit: message.limit == 0 ? 1_000 : Int(message.limit),
            filter: EventLog.Filter(kinds: message.kinds, bundleID: message.bundleId))
        var response = GlimpseGatewayV1.ListEventsResponse()
        response.events = AnswerBudget.prefix(events)
        response.lastSequence = response.events.last?.sequence ?? message.afterSequence
        return ServerResponse(message: response)
    }

    /// Page by page from the log as the client takes them (the transport's flow control
    /// holds the writer while it does not); the stream ends with RESOURCE_EXHAUSTED once the
    /// follower falls more than `followMaxLag` events behind, and when the gateway stops.
    package func follow(
        request: ServerRequest<GlimpseGatewayV1.FollowEventsRequest>, response: ResponseWriter<GlimpseGatewayV1.Event>,
        context: ServerContext
    ) async throws -> Metadata {
        try requireDevice(context, "following the event log")
        let message = request.message
        let follower = gateway.log.follow(
            after: message.afterSequence, filter: EventLog.Filter(kinds: message.kinds, bundleID: message.bundleId),
            maxLag: followMaxLag)
        defer { follower.close() }
        do {
            while let events = try await follower.next() {
                try await response.write(contentsOf: events)
            }
        } catch let behind as EventFollower.FellBehind {
            slowFollowers.log(
                "slow_follower", level: .notice,
                "ended an Events.Follow of \(context.remotePeer): more than \(followMaxLag) events behind",
                metadata: ["peer": "\(context.remotePeer)", "last_sequence": "\(behind.lastRead)"])
            throw RPCError(
                code: .resourceExhausted,
                message:
                    "the follower fell more than \(followMaxLag) events behind; follow again with after_sequence \(behind.lastRead)"
            )
        }
        return Metadata()  // the gateway is stopping: the stream just ends
    }
}
