import NIOCore
import NIOPosix
import Synchronization

/// A bare TCP client for what no HTTP/2 client sends: writes bytes, closes its side (so
/// that a server waiting for the rest of a frame or record sees the end), and returns what
/// came back once the server closed the connection.
enum RawConnection {
    static func exchange(port: Int, _ bytes: [UInt8]) async throws -> [UInt8] {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try? await channel.writeAndFlush(ByteBuffer(bytes: bytes))
        try? await channel.close(mode: .output)
        try await channel.closeFuture.get()
        return collector.received.withLock { $0 }
    }

    /// Writes `bytes` and keeps its side open, saying nothing more, until the server closes
    /// the connection; returns what came back.
    static func waitForClose(port: Int, after bytes: [UInt8] = []) async throws -> [UInt8] {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        if !bytes.isEmpty { try? await channel.writeAndFlush(ByteBuffer(bytes: bytes)) }
        try await channel.closeFuture.get()
        return collector.received.withLock { $0 }
    }

    /// The HTTP/2 client connection preface.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// An HTTP/2 frame: 9-byte header, then `payload`.
    static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + withUnsafeBytes(of: stream.bigEndian, Array.init) + payload
    }

    /// The error code of the first GOAWAY frame in `bytes` (a server's frames), if any.
    static func goAwayErrorCode(in bytes: [UInt8]) -> UInt32? {
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let type = bytes[offset + 3]
            let payload = offset + 9
            guard payload + length <= bytes.count else { return nil }
            if type == 0x7, length >= 8 {
                return bytes[(payload + 4)..<(payload + 8)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            offset = payload + length
        }
        return nil
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received = Mutex<[UInt8]>([])

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLock { $0.append(contentsOf: buffer.readableBytesView) }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)  // a reset after the server's close: done all the same
        }
    }
}
