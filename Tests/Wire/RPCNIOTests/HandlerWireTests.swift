import CNghttp2
import NIOCore
@testable import RPCNIO
import RPCCore
import RPCTestService
import Testing

@Suite("Server connection handler: the gRPC wire")
struct HandlerWireTests {
    @Test func sendsSettingsFirst() async throws {
        let server = try await EmbeddedServer()
        try await server.pump()
        // A frame header: 3 bytes length, type, flags, stream id. SETTINGS is type 4.
        #expect(server.received.count >= 9)
        #expect(server.received[3] == 0x4)
        #expect(server.received[4] == 0x0, "our SETTINGS, not an ACK")
        try await server.finish()
    }

    @Test func answersAUnaryCallWithHeadersDataAndTrailers() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, body: grpcMessage([1, 2, 3]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.header(":status") == "200")
            #expect(record.header("content-type") == "application/grpc")
            #expect(record.data == grpcMessage([1, 2, 3]))
            #expect(record.trailers.first { $0.0 == "grpc-status" }?.1 == "0")
        }
        try await server.finish()
    }

    @Test func reassemblesAMessageSplitAcrossDataFrames() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let message = grpcMessage(Array(repeating: 5, count: 1000))
            let id = server.client.request(path: steeredUnaryPath, body: Array(message[..<3]), end: false)
            try await server.pump()
            server.client.send(Array(message[3..<700]), on: id, end: false)
            try await server.pump()
            server.client.send(Array(message[700...]), on: id, end: true)
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.data == message)
            #expect(server.client.streams[id]?.grpcStatus == 0)
        }
        try await server.finish()
    }

    @Test(arguments: ["application/json", "text/plain"])
    func answersOtherContentTypesWith415(_ contentType: String) async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, contentType: contentType, body: grpcMessage([]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.header(":status") == "415")
        }
        try await server.finish()
    }

    @Test func answersUnknownMethodsTrailersOnly() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(path: "/glimpse.test.Steered/Missing", body: grpcMessage([]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.header(":status") == "200")
            #expect(record.header("grpc-status") == "12", "trailers-only: the status is in the one header block")
            #expect(record.data.isEmpty)
        }
        try await server.finish()
    }

    @Test func refusesGzipAndAdvertisesIdentity() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(
                path: steeredUnaryPath, headers: [("grpc-encoding", "gzip")], body: grpcMessage([]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.grpcStatus == 12)
            #expect(record.header("grpc-accept-encoding") == "identity")
        }
        try await server.finish()
    }

    @Test func answersOversizedMessagesWithResourceExhausted() async throws {
        var config = NIOServerConfig.defaults
        config.maxReceiveMessageSize = 1000
        let server = try await EmbeddedServer(config: config)
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, body: grpcMessage(Array(repeating: 1, count: 1001)))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 8)
        }
        try await server.finish()
    }

    @Test func percentEncodesTheStatusMessage() async throws {
        let message = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(
                path: steeredUnaryPath,
                headers: [("x-fail-code", "3"), ("x-fail-message-bin", Base64.encode(Array(message.utf8)))],
                body: grpcMessage([]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.grpcStatus == 3)
            let wire = try #require(record.trailer("grpc-message"))
            #expect(wire.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E })
            #expect(PercentEncoding.decode(wire) == message)
        }
        try await server.finish()
    }

    @Test func echoesMetadataInHeadersAndTrailersIncludingBinary() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(
                path: steeredUnaryPath,
                headers: [("x-echo-initial-a", "1"), ("x-echo-trailing-bin", "AAEC")],  // unpadded is accepted
                body: grpcMessage([]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.header("x-echo-initial-a") == "1")
            #expect(record.trailers.first { $0.0 == "x-echo-trailing-bin" }?.1 == "AAEC")
        }
        try await server.finish()
    }
}
