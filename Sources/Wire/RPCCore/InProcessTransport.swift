import Synchronization

/// A client and a server transport joined in memory: services can be tested without
/// sockets, with the same call semantics as the HTTP/2 transport (deadlines, cancellation,
/// message size limit, flow control).
///
///     let transport = InProcessTransport()
///     let server = GRPCServer(transport: transport.server, services: [...])
///     let client = GRPCClient(transport: transport.client)
public struct InProcessTransport: Sendable {
    public let server: Server
    public let client: Client

    public init(maxReceiveMessageSize: Int = 4 * 1024 * 1024) {
        let incoming = InboundQueue<ServerStream>()
        server = Server(incoming: incoming)
        client = Client(incoming: incoming, maxReceiveMessageSize: maxReceiveMessageSize)
    }

    public struct Server: ServerTransport {
        let incoming: InboundQueue<ServerStream>

        public func listen(_ handler: @escaping @Sendable (ServerStream) async -> Void) async throws {
            await withDiscardingTaskGroup { group in
                while let stream = try? await incoming.next() {
                    group.addTask { await Self.run(stream, handler) }
                }
            }
        }

        private static func run(
            _ stream: ServerStream, _ handler: @escaping @Sendable (ServerStream) async -> Void
        ) async {
            guard let deadline = stream.deadline, let call = stream as? InProcessCall else {
                await handler(stream)
                return
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await handler(stream) }
                group.addTask {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    if !Task.isCancelled {
                        call.finish(
                            Status(code: .deadlineExceeded, message: "Deadline exceeded"), Metadata(),
                            cancelServer: true)
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }

        public func beginGracefulShutdown() { incoming.finish() }
    }

    public struct Client: ClientTransport {
        let incoming: InboundQueue<ServerStream>
        let maxReceiveMessageSize: Int
        private let shutdown = InboundQueue<Never>()

        init(incoming: InboundQueue<ServerStream>, maxReceiveMessageSize: Int) {
            self.incoming = incoming
            self.maxReceiveMessageSize = maxReceiveMessageSize
        }

        public func openStream(_ head: ClientRequestHead) async throws -> ClientStream {
            if incoming.isClosed { throw RPCError(code: .unavailable, message: "The in-process server is shut down") }
            let call = InProcessCall(
                head: RequestHead(path: head.method.path, metadata: head.metadata, timeout: head.timeout),
                deadline: head.timeout.map { ContinuousClock.now.advanced(by: $0) },
                maxReceiveMessageSize: maxReceiveMessageSize)
            incoming.push(call)
            return ClientStream(inbound: call.responses, outbound: InProcessClientOutbound(call: call))
        }

        public func run() async throws {
            _ = try? await shutdown.next()
        }

        public func beginGracefulShutdown() { shutdown.finish() }
    }
}
