import AssetEngine
import AssetService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Testing

/// PNG and JPEG files built byte by byte (the pixel data is filler no header reader looks at).
enum Images {
    static func png(width: UInt32, height: UInt32, dataBytes: Int = 64, seed: UInt8 = 0) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        out += chunk("IDAT", (0..<dataBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
        out += chunk("IEND", [])
        return out
    }

    /// SOI, APP0 (JFIF), optional APP1 padding (like EXIF), DQT, SOF0, SOS, data, EOI.
    static func jpeg(width: UInt16, height: UInt16, app1Bytes: Int = 0, seed: UInt8 = 0) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        if app1Bytes > 0 {
            out += segment(0xE1, Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0xAB, count: app1Bytes))
        }
        out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        out += segment(0xC0, [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        out += segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
        out += [0x12, 0x34, 0xFF, 0x00, 0x56, seed]
        out += [0xFF, 0xD9]
        return out
    }

    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(UInt16(body.count + 2)) + body
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(UInt32(data.count)) + typeBytes + data + be32(crc32(typeBytes + data))
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

/// A fresh directory under the temporary directory, removed by `remove()`.
struct Scratch {
    let url: URL

    init(_ label: String = "asset") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    var blobFiles: Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("blobs").path)) ?? [])
    }

    var stagingFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("staging").path)) ?? []
    }
}

let start = Date(timeIntervalSince1970: 1_767_258_000)  // 2026-01-01T09:00:00Z

/// glimpse-asset's library served over the in-process transport, on a real data directory.
struct Service {
    let server: AssetServer
    let client: GlimpseAssetV1.AssetService.Client
    let raw: GRPCClient

    /// Opens the server on `directory`, runs `body` with a client, then closes it.
    static func with<R: Sendable>(
        _ directory: URL, settings: AssetSettings = .defaults, _ body: (Service) async throws -> R
    ) async throws -> R {
        let server = try await AssetServer.open(
            directory: directory, clock: HostClock(.manual(start: start)), settings: settings)
        let transport = InProcessTransport()
        let grpc = GRPCServer(transport: transport.server, services: [server.handlers, server.clock])
        let client = GRPCClient(transport: transport.client)
        let serving = Task { try await grpc.serve() }
        let running = Task { try await client.run() }
        let service = Service(server: server, client: GlimpseAssetV1.AssetService.Client(wrapping: client), raw: client)
        do {
            let result = try await body(service)
            await service.stop(grpc, serving, running)
            return result
        } catch {
            await service.stop(grpc, serving, running)
            throw error
        }
    }

    private func stop(_ grpc: GRPCServer, _ serving: Task<Void, any Error>, _ running: Task<Void, any Error>) async {
        raw.beginGracefulShutdown()
        grpc.beginGracefulShutdown()
        _ = await serving.result
        _ = await running.result
        try? await server.close()
    }

    func register(_ bundle: String) async throws -> Metadata {
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = bundle
        let token = try await client.registerApp(
            ClientRequest(message: GlimpseAssetV1.RegisterAppRequest(manifest: manifest))
        ).message.appToken
        return Metadata(["authorization": "Bearer \(token)"])
    }

    static func header(
        _ bundle: String, _ name: String, _ bytes: [UInt8], use: GlimpseAppV1.AssetDeclaration.Use = .widget,
        sha256: String? = nil, size: UInt64? = nil
    ) -> GlimpseAssetV1.PutRequest {
        var header = GlimpseAssetV1.PutHeader()
        header.bundleId = bundle
        header.name = name
        header.use = use
        header.sha256 = sha256 ?? ContentHash.of(bytes).hex
        header.size = size ?? UInt64(bytes.count)
        return GlimpseAssetV1.PutRequest(part: .header(header))
    }

    /// A Put of exactly these messages.
    func put(
        _ messages: [GlimpseAssetV1.PutRequest], metadata: Metadata = Metadata()
    ) async throws -> GlimpseAssetV1.PutResponse {
        try await client.put(metadata: metadata) { writer in
            for message in messages { try await writer.write(message) }
        }.message
    }

    /// A whole image in chunks of `chunk` bytes.
    @discardableResult
    func put(
        _ bundle: String, _ name: String, _ bytes: [UInt8], chunk: Int = 1000,
        use: GlimpseAppV1.AssetDeclaration.Use = .widget,
        metadata: Metadata = Metadata()
    ) async throws -> GlimpseAssetV1.PutResponse {
        var messages = [Self.header(bundle, name, bytes, use: use)]
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            messages.append(
                GlimpseAssetV1.PutRequest(part: .chunk(Array(bytes[start..<min(start + chunk, bytes.count)]))))
        }
        return try await put(messages, metadata: metadata)
    }

    /// The header and the bytes of a Get.
    func get(
        _ bundle: String, _ name: String, ifNoneMatch: String = "", chunkSize: UInt32 = 0,
        metadata: Metadata = Metadata()
    ) async throws -> (header: GlimpseAssetV1.GetHeader?, bytes: [UInt8], chunks: Int) {
        var request = GlimpseAssetV1.GetRequest()
        request.bundleId = bundle
        request.name = name
        request.ifNoneMatch = ifNoneMatch
        request.chunkSize = chunkSize
        return try await client.get(ClientRequest(message: request, metadata: metadata)) { stream in
            var header: GlimpseAssetV1.GetHeader?
            var bytes: [UInt8] = []
            var chunks = 0
            for try await part in stream {
                switch part.part {
                case .header(let h)?: header = h
                case .chunk(let c)?:
                    bytes += c
                    chunks += 1
                case nil: break
                }
            }
            return (header, bytes, chunks)
        }
    }

    func stat(_ bundle: String, _ name: String, metadata: Metadata = Metadata()) async throws -> GlimpseAssetV1.Asset? {
        try await client.stat(
            ClientRequest(message: GlimpseAssetV1.StatRequest(bundleId: bundle, name: name), metadata: metadata)
        ).message.asset
    }
}

/// The status code a call ends with (OK when it succeeds), and its message.
func status(_ body: () async throws -> Void) async -> (code: StatusCode, message: String) {
    do {
        try await body()
        return (.ok, "")
    } catch let error as RPCError {
        return (error.code, error.message)
    } catch {
        return (.unknown, "\(error)")
    }
}
