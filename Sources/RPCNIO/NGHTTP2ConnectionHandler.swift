import NIOCore

/// What the client and server connection handlers share: one nghttp2 session fed from the
/// channel, output written in `flushOutput`, and the channel events that only flush, tear
/// down or let go.
protocol NGHTTP2ConnectionHandler: ChannelInboundHandler, AnyObject {
    var session: NGHTTP2Session? { get set }
    var context: ChannelHandlerContext? { get set }
    /// Turns every ready frame into one write (not while the channel is unwritable).
    func flushOutput()
    /// The connection is gone: every call still open ends (the side decides how).
    func tearDown()
    /// Lets go of the mailbox: its wake-up holds the handler, and the two would otherwise
    /// keep each other alive after the connection is gone.
    func dropMailbox()
}

extension NGHTTP2ConnectionHandler {
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { flushOutput() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        tearDown()
        session?.close()  // also lets go of the session's hold on this handler
        session = nil
        self.context = nil
        dropMailbox()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
