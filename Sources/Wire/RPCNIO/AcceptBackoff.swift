#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import NIOCore

/// What a listener does when `accept` fails for want of resources (EMFILE, ENFILE, ENOBUFS,
/// ENOMEM: out of file descriptors, mostly): it stops accepting for `delay`, then tries
/// again. NIO's own `AcceptBackoffHandler` cannot do it here: when the very first accept of
/// a wake-up fails, the listener stays registered for reading, and the pending connection
/// wakes the event loop again at once, forever (100 % of a core). Turning `autoRead` off
/// takes the listener out of the poll set until the delay is over.
package final class AcceptBackoff: ChannelInboundHandler {
    package typealias InboundIn = any Channel
    package typealias InboundOut = any Channel

    /// How long a listener waits after a failed accept.
    static let delay: Duration = .seconds(1)

    private let events: ConnectionEventSink?
    private var resume: Scheduled<Void>?

    init(events: ConnectionEventSink?) {
        self.events = events
    }

    /// For `ServerBootstrap.serverChannelInitializer`.
    package static func install(on channel: any Channel, events: ConnectionEventSink?) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(AcceptBackoff(events: events))
        }
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, Self.isExhaustion(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        events?(.acceptFailed(error: "\(error)", backoff: Self.delay))
        guard resume == nil, let options = context.channel.syncOptions else { return }
        try? options.setOption(.autoRead, value: false)
        resume = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Self.delay.nanosecondsClamped)) {
            [self] in
            resume = nil
            try? context.channel.syncOptions?.setOption(.autoRead, value: true)
        }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
    }

    static func isExhaustion(_ code: Int32) -> Bool {
        [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code)
    }
}
