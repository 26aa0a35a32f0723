import GlimpseMessages
import GlimpseRPC
import NIOCore
import NIOEmbedded
import RPCCore
import Web
import RPCNIO

extension FuzzTarget {
    /// The HTTP/1.1 JSON front of a gRPC port, bytes in: the transport's `ProtocolSniffer`
    /// (HTTP/1.1, or HTTP/2 after a preface), NIOHTTP1's parser, `HTTP1JSONConnection`
    /// with the browser face on (static files, `GET ?json=`, server-sent events), routes
    /// and the request head rules. Each call that reaches a method gets its body decoded
    /// as that method's request (proto3 JSON) and answered, as a service would.
    static let http1 = FuzzTarget(name: "http1") { bytes in
        HTTPFront.serve(bytes)
    }
}

/// One connection on an embedded channel with the transport's own handlers.
enum HTTPFront {
    /// A handful of the gateway's JSON methods (every request type's JSON decoding is
    /// the `proto` target's): unary, server-streaming, and `List` with its bare route.
    static let routes: JSONRoutes = {
        var router = RPCRouter()
        unary(GlimpseGatewayV1.Apps.Method.install, GlimpseGatewayV1.InstallRequest.self, &router)
        unary(GlimpseGatewayV1.Widgets.Method.tap, GlimpseGatewayV1.TapRequest.self, &router)
        unary(GlimpseGatewayV1.Device.Method.render, GlimpseGatewayV1.RenderRequest.self, &router)
        unary(GlimpseGatewayV1.Events.Method.list, GlimpseGatewayV1.ListEventsRequest.self, &router)
        router.registerServerStreaming(
            GlimpseGatewayV1.Events.Method.follow, format: .json,
            deserializer: ProtoJSONDeserializer<GlimpseGatewayV1.FollowEventsRequest>(),
            serializer: ProtoJSONSerializer<GlimpseGatewayV1.FollowEventsRequest>()
        ) { _, _, _ in throw RPCError(code: .unimplemented) }
        return router.jsonRoutes
    }()

    /// How each routed method's request decodes (gRPC path -> JSON body -> its answer).
    static let decoders: [String: @Sendable ([UInt8]) throws -> [UInt8]] = [
        GlimpseGatewayV1.Apps.Method.install.path: decoder(GlimpseGatewayV1.InstallRequest.self),
        GlimpseGatewayV1.Widgets.Method.tap.path: decoder(GlimpseGatewayV1.TapRequest.self),
        GlimpseGatewayV1.Device.Method.render.path: decoder(GlimpseGatewayV1.RenderRequest.self),
        GlimpseGatewayV1.Events.Method.list.path: decoder(GlimpseGatewayV1.ListEventsRequest.self),
        GlimpseGatewayV1.Events.Method.follow.path: decoder(GlimpseGatewayV1.FollowEventsRequest.self),
    ]

    static let config: NIOServerConfig = {
        var config = NIOServerConfig.defaults
        config.web = WebConfig(
            staticFiles: StaticFiles([
                "index.html": Array("<!doctype html><title>Glimpse</title>".utf8),
                "app.js": Array("console.log(1)".utf8),
            ]))
        config.maxReceiveMessageSize = 64 * 1024  // the 413 path within reach
        return config
    }()

    static func serve(_ bytes: [UInt8]) {
        let channel = EmbeddedChannel()
        let calls = InboundQueue<ServerStream>()
        let sniffer = ProtocolSniffer(config: config, calls: calls, routes: routes)
        do { try channel.pipeline.syncOperations.addHandler(sniffer) } catch {
            finding("the sniffer does not install: \(error)")
        }
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
        channel.embeddedEventLoop.run()
        answer(calls)
        channel.embeddedEventLoop.run()
        drain(channel)
        _ = try? channel.finish(acceptAlreadyClosed: true)
        channel.embeddedEventLoop.run()
        var left: [ServerStream] = []
        calls.pollAll(into: &left)
        for stream in left { stream.abandon(RPCError(code: .cancelled, message: "fuzz input ended")) }
        calls.finish()
    }

    /// Every call that arrived: its request decoded as its method's, and answered.
    private static func answer(_ calls: InboundQueue<ServerStream>) {
        var streams: [ServerStream] = []
        calls.pollAll(into: &streams)
        for stream in streams {
            guard case .one(let body) = stream.takeSingleRequestIfComplete() else {
                stream.abandon(RPCError(code: .cancelled, message: "fuzz input ended"))
                continue
            }
            guard let decode = decoders[stream.head.path] else {
                finding("a call for a path no route names: \(stream.head.path)")
            }
            do {
                stream.sendSingleResponse(metadata: Metadata(), message: try decode(body), trailers: Metadata())
            } catch {
                stream.send(.status(Status(code: .invalidArgument, message: "\(error)"), Metadata()), flush: true)
            }
        }
    }

    /// What the connection wrote (thrown away: a client that reads everything).
    private static func drain(_ channel: EmbeddedChannel) {
        while true {
            do {
                guard try channel.readOutbound(as: ByteBuffer.self) != nil else { return }
            } catch {
                continue  // a part of another type: dropped as well
            }
        }
    }

    private static func unary<M: ProtoJSONMessage>(
        _ method: MethodDescriptor, _ type: M.Type, _ router: inout RPCRouter
    ) {
        router.registerUnary(
            method, format: .json, deserializer: ProtoJSONDeserializer<M>(), serializer: ProtoJSONSerializer<M>()
        ) { _, _ in throw RPCError(code: .unimplemented) }
    }

    private static func decoder<M: ProtoJSONMessage>(_ type: M.Type) -> @Sendable ([UInt8]) throws -> [UInt8] {
        { body in try ProtoJSONDeserializer<M>().deserialize(body).jsonBytes() }
    }
}
