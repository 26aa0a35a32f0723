import CNghttp2
package import NIOCore

/// What the client and server connection handlers share: one nghttp2 session fed from the
/// channel, output written in `flushOutput`, and the channel events that only flush, tear
/// down or let go.
package protocol NGHTTP2ConnectionHandler: ChannelInboundHandler, AnyObject where OutboundOut == ByteBuffer {
    var session: NGHTTP2Session? { get set }
    var context: ChannelHandlerContext? { get set }
    var http2: HTTP2Config { get }
    /// Why this side ended the session, when a callback failed on purpose.
    var fault: UInt32? { get set }
    /// The buffer of the last write, kept to be reused by the next (see `writeReadyFrames`).
    var spareOutput: ByteBuffer? { get set }
    /// Turns every ready frame into one write (not while the channel is unwritable), and
    /// closes the connection when it is done (`writeReadyFrames` does the first part).
    func flushOutput()
    /// Runs what nghttp2's callbacks queued (outside of them).
    func runActions()
    /// True while `runActions` has something to run.
    var hasQueuedActions: Bool { get }
    /// The connection is gone: every call still open ends (the side decides how).
    func tearDown()
    /// Lets go of the mailbox: its wake-up holds the handler, and the two would otherwise
    /// keep each other alive after the connection is gone.
    func dropMailbox()
}

extension NGHTTP2ConnectionHandler {
    package func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { flushOutput() }
        context.fireChannelWritabilityChanged()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        tearDown()
        session?.close()  // also lets go of the session's hold on this handler
        session = nil
        self.context = nil
        dropMailbox()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// A connection-level submit failed (out of memory, or a broken invariant): what this
    /// side meant to tell the peer (a reset, a PING, a GOAWAY, credit) will never reach
    /// it, and the peer would wait for it; the connection closes instead.
    package func connectionSubmitFailed(_ error: NGHTTP2Error) {
        context?.close(promise: nil)
    }

    /// Runs a connection-level submit on the session (if there still is one); a failure
    /// closes the connection (`connectionSubmitFailed`).
    package func submit(_ body: (NGHTTP2Session) throws(NGHTTP2Error) -> Void) {
        guard let session else { return }
        do {
            try body(session)
        } catch {
            connectionSubmitFailed(error)
        }
    }

    /// Runs queued actions and turns every frame nghttp2 has ready into one write (one
    /// buffer, one write per burst). Returns the session, or nil when there is nothing to
    /// write to or the session failed (then the connection is closing).
    package func writeReadyFrames() -> NGHTTP2Session? {
        guard let context, let session, context.channel.isActive, context.channel.isWritable else { return nil }
        // The last write's buffer is reused: once NIO has written it (usually within the
        // flush that sent it) this handler holds the only reference, and `clear` keeps the
        // storage. If the write is still pending, `clear` gives fresh storage instead.
        var buffer = spareOutput.take() ?? context.channel.allocator.buffer(capacity: Self.outputCapacity)
        buffer.clear()
        do {
            repeat {
                runActions()
                try session.drain(into: &buffer)
            } while hasQueuedActions
        } catch {
            context.close(promise: nil)
            return nil
        }
        if buffer.readableBytes > 0 {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
        // A buffer that grew for a burst of large messages is not kept.
        if buffer.capacity <= Self.outputCapacity * 4 { spareOutput = buffer }
        return session
    }

    package static var outputCapacity: Int { 16 * 1024 }

    /// For the header callback: a block this far over the limit is a flood, and the
    /// connection ends with GOAWAY(ENHANCE_YOUR_CALM) rather than answering one stream.
    package func refuseFlood(headerBlockSize size: Int) -> Int32 {
        guard size > http2.maxHeaderListSize * http2.headerFloodFactor else { return 0 }
        fault = HTTP2ErrorCode.enhanceYourCalm
        return NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
    }
}
