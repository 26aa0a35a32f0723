import AssetEngine
import AssetService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseRPC
import ProtoMapping
import RPCCore
import Testing

/// glimpse-asset's handlers over the in-process transport, on a real data directory
/// (SQLite journal, blob files). The real executable is tested in Tests/Peers.
@Suite("AssetService over the in-process transport")
struct ServiceTests {
    static let pixar = "com.example.pixartracker"
    static let pizza = "com.example.pizza"

    @Test("Put, Get in chunks, ETag, Stat, List, Delete")
    func lifecycle() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Service.with(scratch.url) { service in
            let auth = try await service.register(Self.pixar)
            let coco = Images.png(width: 400, height: 300, dataBytes: 20_000)
            let put = try await service.put(Self.pixar, "posters/coco", coco, chunk: 4096, metadata: auth)
            let asset = try #require(put.asset)
            #expect(!put.deduplicated)
            #expect(asset.sha256 == ContentHash.of(coco).hex)
            #expect(asset.etag == "\"\(asset.sha256)\"")
            #expect((asset.size, asset.width, asset.height, asset.format) == (UInt64(coco.count), 400, 300, .png))
            #expect(asset.storedAt == GoogleProtobuf.Timestamp(start))
            #expect(scratch.blobFiles == [asset.sha256])

            let got = try await service.get(Self.pixar, "posters/coco", chunkSize: 1024, metadata: auth)
            #expect(got.bytes == coco)
            #expect(got.chunks == (coco.count + 1023) / 1024)
            #expect(got.header?.asset == asset)
            #expect(got.header?.notModified == false)
            // Unchanged: the header says so and no bytes come.
            let again = try await service.get(Self.pixar, "posters/coco", ifNoneMatch: asset.etag, metadata: auth)
            #expect(again.header?.notModified == true)
            #expect(again.bytes.isEmpty && again.chunks == 0)
            // Another ETag: the bytes come.
            let stale = try await service.get(
                Self.pixar, "posters/coco", ifNoneMatch: ContentHash.of([1]).etag, metadata: auth)
            #expect(stale.bytes == coco)

            #expect(try await service.stat(Self.pixar, "posters/coco", metadata: auth) == asset)
            let jpeg = Images.jpeg(width: 100, height: 100, app1Bytes: 2000)
            try await service.put(Self.pixar, "drivers/tim", jpeg, metadata: auth)
            let all = try await service.client.list(
                ClientRequest(message: GlimpseAssetV1.ListRequest(bundleId: Self.pixar), metadata: auth))
            #expect(all.message.assets.map(\.name) == ["drivers/tim", "posters/coco"])
            let posters = try await service.client.list(
                ClientRequest(
                    message: GlimpseAssetV1.ListRequest(bundleId: Self.pixar, prefix: "posters/"), metadata: auth))
            #expect(posters.message.assets.map(\.name) == ["posters/coco"])

            let deleted = try await service.client.delete(
                ClientRequest(
                    message: GlimpseAssetV1.DeleteRequest(bundleId: Self.pixar, name: "posters/coco"), metadata: auth))
            #expect(deleted.message.blobDeleted)
            #expect(scratch.blobFiles == [ContentHash.of(jpeg).hex])
            let gone = await status { _ = try await service.get(Self.pixar, "posters/coco", metadata: auth) }
            #expect(gone.code == .notFound && gone.message.contains("posters/coco"))
            #expect(scratch.stagingFiles.isEmpty)
        }
    }

    @Test("an app's token reaches only its own names; the device reaches every app")
    func isolation() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Service.with(scratch.url) { service in
            let pixar = try await service.register(Self.pixar)
            let pizza = try await service.register(Self.pizza)
            let coco = Images.png(width: 10, height: 10)
            try await service.put(Self.pixar, "posters/coco", coco, metadata: pixar)

            // Pizza's token, Pixar's bundle: every call is PERMISSION_DENIED.
            let calls: [(String, () async throws -> Void)] = [
                ("Get", { _ = try await service.get(Self.pixar, "posters/coco", metadata: pizza) }),
                ("Stat", { _ = try await service.stat(Self.pixar, "posters/coco", metadata: pizza) }),
                (
                    "List",
                    {
                        _ = try await service.client.list(
                            ClientRequest(message: .init(bundleId: Self.pixar), metadata: pizza))
                    }
                ),
                (
                    "Delete",
                    {
                        _ = try await service.client.delete(
                            ClientRequest(message: .init(bundleId: Self.pixar, name: "posters/coco"), metadata: pizza))
                    }
                ),
                (
                    "Pin",
                    {
                        _ = try await service.client.pin(
                            ClientRequest(
                                message: .init(bundleId: Self.pixar, holder: "h", names: ["posters/coco"]),
                                metadata: pizza))
                    }
                ),
                (
                    "Unpin",
                    {
                        _ = try await service.client.unpin(
                            ClientRequest(message: .init(bundleId: Self.pixar, holder: "h"), metadata: pizza))
                    }
                ),
                (
                    "Prefetch",
                    {
                        _ = try await service.client.prefetch(
                            ClientRequest(
                                message: .init(bundleId: Self.pixar, names: ["posters/coco"]), metadata: pizza))
                    }
                ),
                ("Put", { try await service.put(Self.pixar, "posters/up", coco, metadata: pizza) }),
                (
                    "UnregisterApp",
                    {
                        _ = try await service.client.unregisterApp(
                            ClientRequest(message: .init(bundleId: Self.pixar), metadata: pizza))
                    }
                ),
            ]
            for (method, call) in calls {
                let refused = await status(call)
                #expect(refused.code == .permissionDenied, "\(method): \(refused)")
            }
            // Pizza's own namespace does not have Pixar's names, by any spelling.
            for name in ["posters/coco", "../\(Self.pixar)/posters/coco", "\(Self.pixar)/posters/coco"] {
                let refused = await status { _ = try await service.get(Self.pizza, name, metadata: pizza) }
                #expect(refused.code == .notFound || refused.code == .invalidArgument, "\(name): \(refused)")
                #expect(refused.code != .ok)
            }
            // The device reads any app's; an unknown token is refused; registering is the device's.
            #expect(try await service.get(Self.pixar, "posters/coco").bytes == coco)
            let unknown = await status {
                _ = try await service.get(
                    Self.pixar, "posters/coco", metadata: Metadata(["authorization": "Bearer nope"]))
            }
            #expect(unknown.code == .unauthenticated)
            let registering = await status {
                _ = try await service.client.registerApp(ClientRequest(message: .init(), metadata: pixar))
            }
            #expect(registering.code == .permissionDenied)
            #expect(scratch.blobFiles == [ContentHash.of(coco).hex])
        }
    }

    @Test("the same bytes under two apps' names are one file, deleted with the last name")
    func deduplication() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Service.with(scratch.url) { service in
            let pixar = try await service.register(Self.pixar)
            let pizza = try await service.register(Self.pizza)
            let bytes = Images.jpeg(width: 64, height: 64, app1Bytes: 10_000)
            #expect(try await !service.put(Self.pixar, "a", bytes, metadata: pixar).deduplicated)
            #expect(try await service.put(Self.pizza, "b", bytes, metadata: pizza).deduplicated)
            #expect(scratch.blobFiles == [ContentHash.of(bytes).hex])
            #expect(
                try await !service.client.delete(
                    ClientRequest(message: .init(bundleId: Self.pixar, name: "a"), metadata: pixar)
                ).message.blobDeleted)
            #expect(try await service.get(Self.pizza, "b", metadata: pizza).bytes == bytes)
            #expect(
                try await service.client.delete(
                    ClientRequest(message: .init(bundleId: Self.pizza, name: "b"), metadata: pizza)
                ).message.blobDeleted)
            #expect(scratch.blobFiles.isEmpty)
        }
    }

    @Test("LRU under the budget: a pinned blob stays, an evicted one's file goes, Prefetch tells what to put")
    func pinsEvictionAndPrefetch() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var settings = AssetSettings.defaults
        settings.limits.byteBudget = 25_000
        try await Service.with(scratch.url, settings: settings) { service in
            let auth = try await service.register(Self.pixar)
            let images = (0..<4).map { Images.png(width: 50, height: 50, dataBytes: 10_000, seed: UInt8($0)) }
            try await service.put(Self.pixar, "0", images[0], metadata: auth)
            let pinned = try await service.client.pin(
                ClientRequest(
                    message: .init(bundleId: Self.pixar, holder: "widget:7", names: ["0"]), metadata: auth))
            #expect(pinned.message.evicted.isEmpty)
            try await service.put(Self.pixar, "1", images[1], metadata: auth)
            // "0" is the least recently used, but pinned: "1" goes.
            try await service.put(Self.pixar, "2", images[2], metadata: auth)
            #expect(try await service.stat(Self.pixar, "0", metadata: auth)?.pinned == true)
            #expect(try await service.stat(Self.pixar, "1", metadata: auth)?.evicted == true)
            #expect(scratch.blobFiles == [ContentHash.of(images[0]).hex, ContentHash.of(images[2]).hex])
            let evicted = await status { _ = try await service.get(Self.pixar, "1", metadata: auth) }
            #expect(evicted.code == .notFound && evicted.message.contains("evicted"))

            let hint = try await service.client.prefetch(
                ClientRequest(
                    message: .init(bundleId: Self.pixar, names: ["2", "1", "9", "0"]), metadata: auth)
            ).message
            #expect(hint.present == ["2", "0"])
            #expect(hint.evicted == ["1"])
            #expect(hint.unknown == ["9"])

            // Everything but the pinned blob could go, and that is not enough: refused, nothing changes.
            let big = Images.png(width: 50, height: 50, dataBytes: 18_000, seed: 9)
            let full = await status { try await service.put(Self.pixar, "big", big, metadata: auth) }
            #expect(full.code == .resourceExhausted && full.message.hasPrefix("size:"), "\(full)")
            #expect(scratch.stagingFiles.isEmpty)
            let released = try await service.client.unpin(
                ClientRequest(message: .init(bundleId: Self.pixar, holder: "widget:7"), metadata: auth))
            #expect(released.message.released == 1)
            #expect(
                try await service.client.unpin(
                    ClientRequest(message: .init(bundleId: Self.pixar, holder: "widget:7"), metadata: auth)
                ).message.released == 0)
            try await service.put(Self.pixar, "big", big, metadata: auth)
            #expect(scratch.blobFiles == [ContentHash.of(big).hex])
        }
    }

    @Test("bad Puts are refused with the field named, and leave no file", arguments: PutCase.all)
    func badPuts(_ bad: PutCase) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Service.with(scratch.url) { service in
            let auth = try await service.register(Self.pixar)
            let refused = await status {
                _ = try await service.put(bad.messages, metadata: bad.asDevice ? Metadata() : auth)
            }
            #expect(refused.code == bad.code, "\(bad.label): \(refused)")
            #expect(refused.message.hasPrefix(bad.field), "\(bad.label): \(refused.message)")
            #expect(scratch.blobFiles.isEmpty)
            #expect(scratch.stagingFiles.isEmpty)
            // Still serving: a good Put goes through.
            try await service.put(Self.pixar, "ok", Images.png(width: 1, height: 1), metadata: auth)
        }
    }

    @Test("bad Gets and other calls are refused with the field named")
    func badRequests() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Service.with(scratch.url) { service in
            let auth = try await service.register(Self.pixar)
            try await service.put(Self.pixar, "a", Images.png(width: 1, height: 1), metadata: auth)
            let cases: [(String, StatusCode, String, () async throws -> Void)] = [
                ("unknown name", .notFound, "name:", { _ = try await service.get(Self.pixar, "nope", metadata: auth) }),
                (
                    "empty name", .invalidArgument, "name:",
                    { _ = try await service.get(Self.pixar, "", metadata: auth) }
                ),
                (
                    "traversal", .invalidArgument, "name:",
                    { _ = try await service.get(Self.pixar, "../x/a", metadata: auth) }
                ),
                (
                    "chunk size", .invalidArgument, "chunk_size:",
                    { _ = try await service.get(Self.pixar, "a", chunkSize: 10, metadata: auth) }
                ),
                (
                    "if_none_match", .invalidArgument, "if_none_match:",
                    { _ = try await service.get(Self.pixar, "a", ifNoneMatch: "abc", metadata: auth) }
                ),
                ("unregistered app", .notFound, "bundle_id:", { _ = try await service.get("com.example.none", "a") }),
                ("no bundle id", .invalidArgument, "bundle_id:", { _ = try await service.get("", "a") }),
                (
                    "stat unknown", .notFound, "name:",
                    { _ = try await service.stat(Self.pixar, "nope", metadata: auth) }
                ),
                (
                    "delete unknown", .notFound, "name:",
                    {
                        _ = try await service.client.delete(
                            ClientRequest(message: .init(bundleId: Self.pixar, name: "nope"), metadata: auth))
                    }
                ),
                (
                    "pin unknown", .notFound, "names[1]:",
                    {
                        _ = try await service.client.pin(
                            ClientRequest(
                                message: .init(bundleId: Self.pixar, holder: "h", names: ["a", "nope"]), metadata: auth)
                        )
                    }
                ),
                (
                    "pin without holder", .invalidArgument, "holder:",
                    {
                        _ = try await service.client.pin(
                            ClientRequest(message: .init(bundleId: Self.pixar, names: ["a"]), metadata: auth))
                    }
                ),
                (
                    "prefetch bad name", .invalidArgument, "names[0]:",
                    {
                        _ = try await service.client.prefetch(
                            ClientRequest(message: .init(bundleId: Self.pixar, names: ["a//b"]), metadata: auth))
                    }
                ),
                (
                    "register without manifest", .invalidArgument, "manifest:",
                    {
                        _ = try await service.client.registerApp(ClientRequest(message: .init()))
                    }
                ),
                (
                    "register twice", .alreadyExists, "app \(Self.pixar)",
                    {
                        _ = try await service.register(Self.pixar)
                    }
                ),
                (
                    "register a bundle with a slash", .invalidArgument, "manifest.bundle_id:",
                    {
                        _ = try await service.register("com.example/evil")
                    }
                ),
            ]
            for (label, code, field, call) in cases {
                let refused = await status(call)
                #expect(refused.code == code, "\(label): \(refused)")
                #expect(refused.message.hasPrefix(field), "\(label): \(refused.message)")
            }
        }
    }

    @Test(
        "a blob file changed on disk is never served: DATA_LOSS, the name becomes evicted, the file goes",
        arguments: [AssetSettings.ReadVerification.whenFileChanged, .always])
    func corruptFile(_ verification: AssetSettings.ReadVerification) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var settings = AssetSettings.defaults
        settings.readVerification = verification
        try await Service.with(scratch.url, settings: settings) { service in
            let auth = try await service.register(Self.pixar)
            let bytes = Images.png(width: 20, height: 20, dataBytes: 300_000)
            let put = try await service.put(Self.pixar, "a", bytes, chunk: 65_536, metadata: auth)
            #expect(try await service.get(Self.pixar, "a", metadata: auth).bytes == bytes)
            var corrupt = bytes
            corrupt[200_000] ^= 0xFF
            let path = scratch.url.appendingPathComponent("blobs").appendingPathComponent(put.asset!.sha256).path
            if verification == .always {
                // Written in place: the same file, whatever its time stamps say.
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seek(toOffset: 200_000)
                try handle.write(contentsOf: Data([corrupt[200_000]]))
                try handle.close()
            } else {
                // Replaced, as editors and copy tools do: another file under the name.
                try Data(corrupt).write(to: URL(fileURLWithPath: path), options: .atomic)
            }
            let (code, message) = await status {
                _ = try await service.get(Self.pixar, "a", chunkSize: 65_536, metadata: auth)
            }
            #expect(code == .dataLoss, "\(message)")
            #expect(try await service.stat(Self.pixar, "a", metadata: auth)?.evicted == true)
            #expect(scratch.blobFiles.isEmpty)
            // Put again: served again.
            try await service.put(Self.pixar, "a", bytes, metadata: auth)
            #expect(try await service.get(Self.pixar, "a", metadata: auth).bytes == bytes)
        }
    }

    @Test("a put of bytes whose file went missing stores them again rather than pointing at nothing")
    func dedupAgainstMissingFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Service.with(scratch.url) { service in
            let auth = try await service.register(Self.pixar)
            let bytes = Images.png(width: 30, height: 30, dataBytes: 4000)
            try await service.put(Self.pixar, "a", bytes, metadata: auth)
            try FileManager.default.removeItem(
                at: scratch.url.appendingPathComponent("blobs").appendingPathComponent(ContentHash.of(bytes).hex))
            let again = try await service.put(Self.pixar, "b", bytes, metadata: auth)
            #expect(!again.deduplicated)
            #expect(scratch.blobFiles == [ContentHash.of(bytes).hex])
            #expect(try await service.get(Self.pixar, "b", metadata: auth).bytes == bytes)
            #expect(scratch.stagingFiles.isEmpty)
        }
    }

    @Test(
        "a restart reconciles files with the journal: orphans go, an interrupted commit finishes, a missing file is evicted"
    )
    func reconcileAfterCrash() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let keep = Images.png(width: 10, height: 10, seed: 1)
        let interrupted = Images.png(width: 10, height: 10, seed: 2)
        let missing = Images.png(width: 10, height: 10, seed: 3)
        let token = try await Service.with(scratch.url) { service in
            let auth = try await service.register(Self.pixar)
            for (name, bytes) in [("keep", keep), ("interrupted", interrupted), ("missing", missing)] {
                try await service.put(Self.pixar, name, bytes, metadata: auth)
            }
            return auth
        }
        // What a crash can leave: a committed name whose file is still staged, a file no
        // name holds, a half-written upload, and a blob file someone removed.
        let blobs = scratch.url.appendingPathComponent("blobs")
        let staging = scratch.url.appendingPathComponent("staging")
        try FileManager.default.moveItem(
            at: blobs.appendingPathComponent(ContentHash.of(interrupted).hex),
            to: staging.appendingPathComponent("upload-41"))
        try Data([1, 2, 3]).write(to: blobs.appendingPathComponent(ContentHash.of([9, 9]).hex))
        try Data([7]).write(to: blobs.appendingPathComponent("not-a-hash"))
        try Data(keep.prefix(10)).write(to: staging.appendingPathComponent("upload-42"))
        try FileManager.default.removeItem(at: blobs.appendingPathComponent(ContentHash.of(missing).hex))

        try await Service.with(scratch.url) { service async throws in
            #expect(scratch.blobFiles == [ContentHash.of(keep).hex, ContentHash.of(interrupted).hex])
            #expect(scratch.stagingFiles.isEmpty)
            #expect(try await service.get(Self.pixar, "keep", metadata: token).bytes == keep)
            #expect(try await service.get(Self.pixar, "interrupted", metadata: token).bytes == interrupted)
            #expect(try await service.stat(Self.pixar, "missing", metadata: token)?.evicted == true)
        }
    }

    @Test("a restart with another budget journals it and evicts down to it")
    func budgetFromSettings() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let images = (0..<3).map { Images.png(width: 10, height: 10, dataBytes: 10_000, seed: UInt8($0)) }
        let auth = try await Service.with(scratch.url) { service in
            let auth = try await service.register(Self.pixar)
            for (i, bytes) in images.enumerated() { try await service.put(Self.pixar, "\(i)", bytes, metadata: auth) }
            return auth
        }
        var settings = AssetSettings.defaults
        settings.limits.byteBudget = 15_000
        try await Service.with(scratch.url, settings: settings) { service async throws in
            #expect(try await service.stat(Self.pixar, "0", metadata: auth)?.evicted == true)
            #expect(try await service.stat(Self.pixar, "1", metadata: auth)?.evicted == true)
            #expect(try await service.get(Self.pixar, "2", metadata: auth).bytes == images[2])
            #expect(scratch.blobFiles == [ContentHash.of(images[2]).hex])
        }
        // And the same budget again journals nothing more: the state is as it was.
        try await Service.with(scratch.url, settings: settings) { service async throws in
            #expect(try await service.stat(Self.pixar, "1", metadata: auth)?.evicted == true)
            #expect(await service.server.host.read { $0.catalog.limits.byteBudget } == 15_000)
        }
    }
}

/// One bad Put: its messages, and the status and field it must be refused with.
struct PutCase: Sendable, CustomTestStringConvertible {
    let label: String
    let messages: [GlimpseAssetV1.PutRequest]
    let code: StatusCode
    let field: String
    /// Sent without a token (another app's token would be PERMISSION_DENIED first).
    var asDevice = false

    var testDescription: String { label }

    static let app = ServiceTests.pixar

    static func chunks(_ bytes: [UInt8], _ size: Int = 100) -> [GlimpseAssetV1.PutRequest] {
        stride(from: 0, to: bytes.count, by: size).map {
            GlimpseAssetV1.PutRequest(part: .chunk(Array(bytes[$0..<min($0 + size, bytes.count)])))
        }
    }

    static var all: [PutCase] {
        let png = Images.png(width: 100, height: 100)
        let huge = Images.png(width: 1024, height: 1024)
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 1, count: 100)
        let poster = Images.jpeg(width: 500, height: 500)
        return [
            PutCase(label: "empty Put", messages: [], code: .invalidArgument, field: "header:"),
            PutCase(label: "chunk first", messages: chunks(png), code: .invalidArgument, field: "header:"),
            PutCase(
                label: "header only", messages: [Service.header(app, "a", png)], code: .invalidArgument, field: "size:"),
            PutCase(
                label: "wrong hash",
                messages: [Service.header(app, "a", png, sha256: ContentHash.of([1]).hex)] + chunks(png),
                code: .invalidArgument, field: "sha256:"),
            PutCase(
                label: "malformed hash", messages: [Service.header(app, "a", png, sha256: "xyz")] + chunks(png),
                code: .invalidArgument, field: "sha256:"),
            PutCase(
                label: "chunk past the declared size",
                messages: [Service.header(app, "a", png, size: UInt64(png.count - 10))] + chunks(png),
                code: .invalidArgument, field: "chunk:"),
            PutCase(
                label: "fewer bytes than declared",
                messages: [Service.header(app, "a", png, size: UInt64(png.count + 10))] + chunks(png),
                code: .invalidArgument, field: "size:"),
            PutCase(
                label: "size zero", messages: [Service.header(app, "a", png, size: 0)] + chunks(png),
                code: .invalidArgument, field: "size:"),
            PutCase(
                label: "over 10 MiB declared", messages: [Service.header(app, "a", png, size: 11 << 20)],
                code: .invalidArgument, field: "size:"),
            PutCase(
                label: "size past Int", messages: [Service.header(app, "a", png, size: .max)], code: .invalidArgument,
                field: "size:"),
            PutCase(
                label: "not PNG or JPEG", messages: [Service.header(app, "a", gif)] + chunks(gif),
                code: .invalidArgument, field: "chunk: GIF"),
            PutCase(
                label: "widget area over 718,080", messages: [Service.header(app, "a", huge)] + chunks(huge),
                code: .invalidArgument, field: "chunk: a 1024×1024 widget image"),
            PutCase(
                label: "minimal presentation too large",
                messages: [Service.header(app, "a", poster, use: .liveActivityMinimal)] + chunks(poster),
                code: .invalidArgument, field: "chunk:"),
            PutCase(
                label: "no use", messages: [Service.header(app, "a", png, use: .unspecified)] + chunks(png),
                code: .invalidArgument, field: "use:"),
            PutCase(
                label: "second header",
                messages: [Service.header(app, "a", png)] + chunks(png).prefix(1) + [Service.header(app, "a", png)],
                code: .invalidArgument, field: "header:"),
            PutCase(
                label: "empty message", messages: [Service.header(app, "a", png), GlimpseAssetV1.PutRequest()],
                code: .invalidArgument, field: "part:"),
            PutCase(
                label: "bad name", messages: [Service.header(app, "a/../b", png)] + chunks(png), code: .invalidArgument,
                field: "name:"),
            PutCase(
                label: "unregistered app", messages: [Service.header("com.example.none", "a", png)] + chunks(png),
                code: .notFound, field: "bundle_id:", asDevice: true),
            PutCase(
                label: "truncated header",
                messages: [Service.header(app, "a", Array(png.prefix(16)))] + chunks(Array(png.prefix(16))),
                code: .invalidArgument, field: "chunk:"),
        ]
    }
}
