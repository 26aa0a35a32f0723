import AssetEngine
import BenchSupport
import Crypto
import Foundation
import GlimpseVocabulary
import GlimpseMessages
import GlimpseRPC
import RPCCore
import RPCNIO
import Synchronization

/// glimpse-bench-asset-service --asset PATH [--size BYTES] [--blobs N] [--seconds S]
///                             [--concurrency C] [--chunk BYTES]
///
/// The real glimpse-asset (a child process, a fresh data directory, its default settings
/// but a budget that holds every blob) over loopback gRPC:
/// - Put: N distinct images of BYTES each (a PNG header, then filler), C in flight;
///   MB/s from the first header to the last acknowledgement (each blob written, fsynced,
///   renamed, journaled).
/// - Get, cache hits: C lanes fetching the stored blobs round-robin for S seconds, in
///   chunks of the given size; GB/s of asset bytes received. The client counts message
///   bytes without decoding them (the first Get of each blob is decoded and compared).
///   Blobs this run wrote are known good, so these Gets do not hash; after a restart the
///   first Get of each blob hashes it as it streams: one pass over them measures that.
/// Beside them, in the same run, the references on the same files: each blob file read
/// with pread in the same chunks (with and without SHA-256, which the service checks on
/// every Get), and each blob written to a file, fsynced and renamed (what a Put must do on
/// disk at the least); then the catalog alone (AssetCache over memory) on the same bytes.
@main
enum BenchMain {
    static let app = "com.example.bench"

    struct Options {
        var size = 4 << 20
        var blobs = 32
        var seconds = 5.0
        var concurrency = 4
        var chunk = 256 << 10
        var assetPath = ""

        static func parse() -> Options? {
            var options = Options()
            var arguments = CommandLine.arguments.dropFirst().makeIterator()
            while let argument = arguments.next() {
                switch argument {
                case "--size": options.size = Int(arguments.next() ?? "") ?? options.size
                case "--blobs": options.blobs = Int(arguments.next() ?? "") ?? options.blobs
                case "--seconds": options.seconds = Double(arguments.next() ?? "") ?? options.seconds
                case "--concurrency": options.concurrency = Int(arguments.next() ?? "") ?? options.concurrency
                case "--chunk": options.chunk = Int(arguments.next() ?? "") ?? options.chunk
                case "--asset": options.assetPath = arguments.next() ?? ""
                default:
                    print(
                        "usage: glimpse-bench-asset-service --asset PATH [--size BYTES] [--blobs N] [--seconds S] [--concurrency C] [--chunk BYTES]"
                    )
                    return nil
                }
            }
            return options
        }
    }

    static func main() async throws {
        guard let options = Options.parse() else { return }
        let (size, blobs, seconds, concurrency, chunk, assetPath) =
            (options.size, options.blobs, options.seconds, options.concurrency, options.chunk, options.assetPath)
        let images = (0..<blobs).map { image(index: $0, size: size) }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("bench-asset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        guard
            let service = try ServiceProcess.start(
                assetPath,
                [
                    "--port", "0", "--data-dir", data.path, "--log-level", "warning",
                    "--budget-bytes", "\(size * blobs * 2)",
                ])
        else { return }
        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: service.port))
        let clientTask = Task { try await client.run() }
        let assets = GlimpseAssetV1.AssetService.Client(wrapping: client)
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = app
        let token = try await assets.registerApp(
            ClientRequest(message: GlimpseAssetV1.RegisterAppRequest(manifest: manifest))
        ).message.appToken
        let auth = Metadata(["authorization": "Bearer \(token)"])

        // Put
        let wall = ContinuousClock()
        let cpuBeforePut = service.cpuSeconds
        let putStart = wall.now
        try await lanes(concurrency, over: blobs) { n in
            try await put(assets, name: "bench/\(n)", images[n], chunk: chunk, metadata: auth)
        }
        let putTime = wall.now - putStart
        let putCPU = service.cpuSeconds - cpuBeforePut
        let putBytes = Double(size * blobs)

        // Get: the first of each blob decoded and checked, then raw bytes for S seconds.
        for n in 0..<blobs { try await check(assets, name: "bench/\(n)", images[n], metadata: auth) }
        let received = Atomic<Int>(0)
        let cpuBeforeGet = service.cpuSeconds
        let getStart = wall.now
        let deadline = getStart + .milliseconds(Int(seconds * 1000))
        try await lanes(concurrency, over: concurrency) { lane in
            var n = lane
            while wall.now < deadline {
                let bytes = try await rawGet(client, name: "bench/\(n % blobs)", chunk: chunk, metadata: auth)
                received.add(bytes, ordering: .relaxed)
                n += concurrency
            }
        }
        let getTime = wall.now - getStart
        let getCPU = service.cpuSeconds - cpuBeforeGet
        let getBytes = Double(received.load(ordering: .relaxed))
        let resident = service.residentBytes
        service.stop()
        client.beginGracefulShutdown()
        _ = await clientTask.result

        // After a restart every blob is hashed on its first Get: one pass over them all.
        guard
            let restarted = try ServiceProcess.start(
                assetPath,
                [
                    "--port", "0", "--data-dir", data.path, "--log-level", "warning", "--budget-bytes",
                    "\(size * blobs * 2)",
                ])
        else { return }
        let again = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: restarted.port))
        let againTask = Task { try await again.run() }
        let firstReads = Atomic<Int>(0)
        let firstStart = wall.now
        try await lanes(concurrency, over: blobs) { n in
            firstReads.add(
                try await rawGet(again, name: "bench/\(n)", chunk: chunk, metadata: auth), ordering: .relaxed)
        }
        let firstTime = wall.now - firstStart
        restarted.stop()
        again.beginGracefulShutdown()
        _ = await againTask.result

        print(
            "glimpse-asset service: \(blobs) images of \(size) bytes, \(concurrency) calls in flight, \(chunk)-byte chunks"
        )
        print(
            "Put:                              \(format(putBytes / 1e6 / putTime.seconds)) MB/s (\(format(Double(blobs) / putTime.seconds)) puts/s), service CPU \(format(putCPU, 2)) s"
        )
        print(
            "Get (cache hits):                 \(format(getBytes / 1e9 / getTime.seconds, 2)) GB/s over \(format(getTime.seconds)) s, service CPU \(format(getCPU / getTime.seconds, 2)) cores"
        )
        print(
            "Get, first after a restart:       \(format(Double(firstReads.load(ordering: .relaxed)) / 1e9 / firstTime.seconds, 2)) GB/s (each blob hashed as it streams)"
        )
        print("service resident bytes:           \(resident)")

        // References on the same machine, same run.
        let blobDirectory = data.appendingPathComponent("blobs")
        let hashes = images.map { ContentHash.of($0) }
        try reference(
            reading: hashes.map { blobDirectory.appendingPathComponent($0.hex).path }, chunk: chunk, seconds: seconds)
        try reference(writing: images, in: data.appendingPathComponent("reference"))
        try catalogAlone(images, chunk: chunk, seconds: seconds)
    }

    /// A PNG header (so the catalog accepts it: 512×512, 262,144 px) and `size` bytes in all.
    static func image(index: Int, size: Int) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        out += Array("IHDR".utf8) + [0, 0, 2, 0, 0, 0, 2, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        var generator = SplitMix(seed: UInt64(index + 1))
        out.reserveCapacity(size)
        while out.count < size { out.append(UInt8(truncatingIfNeeded: generator.next())) }
        return out
    }

    static func put(
        _ assets: GlimpseAssetV1.AssetService.Client, name: String, _ bytes: [UInt8], chunk: Int,
        metadata: Metadata
    ) async throws {
        var header = GlimpseAssetV1.PutHeader()
        header.bundleId = app
        header.name = name
        header.use = .widget
        header.sha256 = ContentHash.of(bytes).hex
        header.size = UInt64(bytes.count)
        _ = try await assets.put(metadata: metadata) { writer in
            try await writer.write(GlimpseAssetV1.PutRequest(part: .header(header)))
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try await writer.write(
                    GlimpseAssetV1.PutRequest(part: .chunk(Array(bytes[start..<min(start + chunk, bytes.count)]))))
            }
        }
    }

    static func check(
        _ assets: GlimpseAssetV1.AssetService.Client, name: String, _ bytes: [UInt8], metadata: Metadata
    ) async throws {
        var request = GlimpseAssetV1.GetRequest()
        request.bundleId = app
        request.name = name
        let got = try await assets.get(ClientRequest(message: request, metadata: metadata)) { stream in
            var out: [UInt8] = []
            for try await part in stream { if case .chunk(let c)? = part.part { out += c } }
            return out
        }
        guard got == bytes else { fatalError("\(name): the bytes differ") }
    }

    /// One Get, its messages counted as they arrive (not decoded); returns the asset bytes.
    static func rawGet(_ client: GRPCClient, name: String, chunk: Int, metadata: Metadata) async throws -> Int {
        var request = GlimpseAssetV1.GetRequest()
        request.bundleId = app
        request.name = name
        request.chunkSize = UInt32(chunk)
        return try await client.serverStreaming(
            request: ClientRequest(message: request, metadata: metadata),
            method: GlimpseAssetV1.AssetService.Method.get,
            serializer: ProtoSerializer<GlimpseAssetV1.GetRequest>(), deserializer: RawBytesCoder()
        ) { stream in
            var bytes = 0
            var first = true
            for try await message in stream {
                if first { first = false; continue }  // the header
                bytes += chunkLength(message)
            }
            return bytes
        }
    }

    /// A GetResponse holding a chunk is its tag (one byte), the length (a varint), the bytes.
    static func chunkLength(_ message: [UInt8]) -> Int {
        var length = 0, shift = 0, i = 1
        while i < message.count {
            length |= Int(message[i] & 0x7F) << shift
            if message[i] & 0x80 == 0 { break }
            shift += 7
            i += 1
        }
        return length
    }

    /// The blob files read directly (pread in the same chunks), with and without SHA-256.
    static func reference(reading paths: [String], chunk: Int, seconds: Double) throws {
        for hashing in [false, true] {
            let wall = ContinuousClock()
            let start = wall.now
            var bytes = 0
            var n = 0
            var buffer = [UInt8](repeating: 0, count: chunk)
            while (wall.now - start).seconds < seconds / 2 {
                let fd = open(paths[n % paths.count], O_RDONLY)
                var hasher = SHA256()
                var offset = 0
                while true {
                    let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, chunk, off_t(offset)) }
                    guard got > 0 else { break }
                    if hashing {
                        buffer.withUnsafeBytes {
                            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<got]))
                        }
                    }
                    offset += got
                }
                if hashing { _ = hasher.finalize() }
                close(fd)
                bytes += offset
                n += 1
            }
            let took = wall.now - start
            print(
                "== reference: the blob files read directly\(hashing ? " + SHA-256" : "")\(String(repeating: " ", count: hashing ? 0 : 10))  \(format(Double(bytes) / 1e9 / took.seconds, 2)) GB/s (one thread)"
            )
        }
    }

    /// Each image written to a file, fsynced, renamed and the directory fsynced: the disk
    /// work a Put must do at the least.
    static func reference(writing images: [[UInt8]], in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wall = ContinuousClock()
        let start = wall.now
        for (n, bytes) in images.enumerated() {
            let staged = directory.appendingPathComponent("staged-\(n)").path
            let fd = open(staged, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            fsync(fd)
            close(fd)
            rename(staged, directory.appendingPathComponent("blob-\(n)").path)
            let dir = open(directory.path, O_RDONLY | O_DIRECTORY)
            fsync(dir)
            close(dir)
        }
        let took = wall.now - start
        let total = Double(images.reduce(0) { $0 + $1.count })
        print("== reference: write + fsync + rename, one after another: \(format(total / 1e6 / took.seconds)) MB/s")
    }

    /// The catalog alone, in process, over memory: put (hash + header checks) and a
    /// verified chunked read of the same images.
    static func catalogAlone(_ images: [[UInt8]], chunk: Int, seconds: Double) throws {
        var limits = AssetLimits.defaults
        limits.byteBudget = images.reduce(0) { $0 + $1.count } * 2
        var cache = AssetCache(engine: AssetCatalog(clock: VirtualClock(), limits: limits), store: InMemoryBlobStore())
        let wall = ContinuousClock()
        var start = wall.now
        for (n, bytes) in images.enumerated() {
            _ = try cache.put("\(app)/bench/\(n)", bytes, chunkSize: chunk, expectedHash: ContentHash.of(bytes))
        }
        let putTook = wall.now - start
        start = wall.now
        var bytes = 0
        var n = 0
        while (wall.now - start).seconds < seconds / 2 {
            var reader = try cache.read(try AssetName("\(app)/bench/\(n % images.count)"), chunkSize: chunk)
            while let part = try reader.next() { bytes += part.count }
            n += 1
        }
        let getTook = wall.now - start
        let total = Double(images.reduce(0) { $0 + $1.count })
        print(
            "== catalog alone (AssetCache over memory, in process): put \(format(total / 1e6 / putTook.seconds)) MB/s, verified get \(format(Double(bytes) / 1e9 / getTook.seconds, 2)) GB/s"
        )
    }

    /// Runs `body(n)` for n in 0..<total on `width` concurrent lanes.
    static func lanes(
        _ width: Int, over total: Int, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<width {
                group.addTask {
                    for n in stride(from: lane, to: total, by: width) { try await body(n) }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Deterministic filler (incompressible, distinct per image).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
