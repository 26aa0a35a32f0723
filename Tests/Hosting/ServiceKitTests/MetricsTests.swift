import GlimpseInterop
import GlimpseMessages
import NIOCore
import NIOPosix
import Prometheus
import RPCCore
import RPCNIO
import ServiceKit
import Testing

@Suite("Metrics: per-method counts and latency, scraped over HTTP")
struct MetricsTests {
    @Test("calls are counted per method and GET /metrics serves them in Prometheus text format")
    func scrape() async throws {
        let registry = PrometheusCollectorRegistry()
        let router = RPCRouter(services: [InteropTestService()])
        let metrics = RPCMetrics(factory: PrometheusMetricsFactory(registry: registry), served: router.paths)
        let transport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let server = GRPCServer(transport: MeteredServerTransport(transport, metrics: metrics), router: router)
        let endpoint = try await MetricsEndpoint.bind(host: "127.0.0.1", port: 0, registry: registry)

        try await withThrowingTaskGroup { group in
            group.addTask { try await server.serve() }
            let port = try await transport.listeningAddress().port!
            let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
            group.addTask { try await client.run() }
            let test = GrpcTesting.TestService.Client(wrapping: client)
            for _ in 0..<2 {
                _ = try await test.unaryCall(ClientRequest(message: GrpcTesting.SimpleRequest()))
            }
            _ = try await test.emptyCall(ClientRequest(message: GrpcTesting.Empty()))
            await #expect(throws: RPCError.self) {
                _ = try await test.unimplementedCall(ClientRequest(message: GrpcTesting.Empty()))
            }

            let scrape = try await httpGet(port: endpoint.port, path: "/metrics")
            #expect(scrape.status == 200)
            let lines = scrape.body.split(separator: "\n").map(String.init)
            let unary = #"{grpc_service="grpc.testing.TestService",grpc_method="UnaryCall"}"#
            let empty = #"{grpc_service="grpc.testing.TestService",grpc_method="EmptyCall"}"#
            let unimplemented = #"{grpc_service="grpc.testing.TestService",grpc_method="UnimplementedCall"}"#
            #expect(lines.contains("grpc_server_handled_total\(unary) 2"))
            #expect(lines.contains("grpc_server_handled_total\(empty) 1"))
            #expect(lines.contains("grpc_server_handled_total\(unimplemented) 1"))
            #expect(lines.contains("grpc_server_handling_seconds_count\(unary) 2"))
            #expect(
                lines.contains {
                    $0.hasPrefix(
                        "grpc_server_handling_seconds_bucket{grpc_service=\"grpc.testing.TestService\",grpc_method=\"UnaryCall\",le="
                    )
                })
            #expect(lines.contains("# TYPE grpc_server_handled_total counter"))

            #expect(try await httpGet(port: endpoint.port, path: "/other").status == 404)
            #expect(try await httpGet(port: endpoint.port, path: "/metrics", method: "POST").status == 405)

            client.beginGracefulShutdown()
            server.beginGracefulShutdown()
            try await group.waitForAll()
        }
        await endpoint.close()
    }

    @Test("paths the server does not serve share one `unknown` label")
    func unknownPaths() async throws {
        let registry = PrometheusCollectorRegistry()
        let metrics = RPCMetrics(factory: PrometheusMetricsFactory(registry: registry), served: ["/a.B/C"])
        metrics.record(path: "/made.Up/Path1", duration: .milliseconds(1), abandonment: nil)
        metrics.record(path: "/made.Up/Path2", duration: .milliseconds(1), abandonment: nil)
        metrics.record(
            path: "/a.B/C", duration: .milliseconds(1),
            abandonment: RPCError(code: .cancelled, message: "reset"))
        let text = registry.emitToString()
        #expect(text.contains(#"grpc_server_handled_total{grpc_service="unknown",grpc_method="unknown"} 2"#))
        #expect(text.contains(#"grpc_server_handled_total{grpc_service="a.B",grpc_method="C"} 1"#))
        #expect(text.contains(#"grpc_server_abandoned_total{grpc_service="a.B",grpc_method="C",grpc_code="#))
        #expect(!text.contains("Path1"))
    }
}
