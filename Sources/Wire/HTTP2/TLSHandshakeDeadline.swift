import NIOCore
import NIOTLS
import RPCNIO

/// Closes a TLS connection whose handshake is not complete within `timeout` of being
/// accepted. Placed right after the TLS handler, it sees the handshake's completion and
/// leaves the pipeline then; until that, no HTTP/2 stream can open, so the connection's
/// idle timer alone would let a silent client hold the socket for minutes.
final class TLSHandshakeDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: Duration
    private let events: ConnectionEventSink?
    private var timer: Scheduled<Void>?

    init(timeout: Duration, events: ConnectionEventSink?) {
        self.timeout = timeout
        self.events = events
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let timeout = timeout
        let events = events
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(timeout.nanosecondsClamped)) {
            events?(.handshakeTimedOut(peer: PeerAddress.describe(channel.remoteAddress), after: timeout))
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            timer?.cancel()
            timer = nil
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
