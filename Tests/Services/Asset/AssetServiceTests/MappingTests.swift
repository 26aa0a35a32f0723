import AssetEngine
import AssetMapping
import AssetService
import Foundation
import GlimpseVocabulary
import GlimpseMessages
import ProtoMapping
import RPCCore
import Testing

/// The wire's asset fields as the catalog's values and back, each bad field refused with
/// its name; the catalog's refusals as gRPC statuses naming the field at fault.
@Suite("Asset mapping")
struct MappingTests {
    @Test(
        "a bundle id heads names only when it cannot reach into another app's",
        arguments: [
            ("com.example.pixar", true), ("", false), ("com.example/other", false), ("a\\b", false),
            (".", false), ("..", false), ("com.example\u{7}", false), ("net.insoc.rtlair", true),
        ])
    func bundleIDs(bundle: String, accepted: Bool) {
        do {
            let app = try AssetWire.app(bundle)
            #expect(accepted)
            #expect(app.rawValue == bundle)
        } catch {
            #expect(!accepted)
            #expect(error.field == "bundle_id")
        }
    }

    @Test(
        "names are app-scoped: the bundle id comes first, traversal is refused",
        arguments: [
            ("posters/coco", true), ("coco", true), ("", false), ("../com.example.other/x", false),
            ("posters/../../x", false), ("posters//coco", false), ("/coco", false), ("a\u{0}b", false),
            (String(repeating: "x", count: 300), false),
        ])
    func names(text: String, accepted: Bool) {
        do {
            let name = try AssetWire.name(text, of: AppID("com.example.pixar"), limits: .defaults, field: "names[2]")
            #expect(accepted)
            #expect(name.app == "com.example.pixar")
            #expect(name.path == text)
        } catch {
            #expect(!accepted)
            #expect(error.field == "names[2]")
        }
    }

    @Test("every use maps to the catalog's and back; unspecified and unknown are refused")
    func uses() throws {
        let cases: [(GlimpseAppV1.AssetDeclaration.Use, AssetUse)] = [
            (.widget, .widget), (.liveActivityMinimal, .liveActivity(.minimal)),
            (.liveActivityCompact, .liveActivity(.compact)),
            (.liveActivityExpanded, .liveActivity(.expanded)), (.liveActivityLockScreen, .liveActivity(.lockScreen)),
        ]
        for (wire, use) in cases {
            #expect(try AssetWire.use(wire) == use)
            #expect(AssetWire.wire(use) == wire)
        }
        #expect(throws: InvalidField.self) { try AssetWire.use(.unspecified) }
        #expect(throws: InvalidField.self) { try AssetWire.use(.unrecognized(9)) }
    }

    @Test("the declared SHA-256 is 64 hex digits in either case")
    func hashes() throws {
        let hash = ContentHash.of([1, 2, 3])
        #expect(try AssetWire.hash(hash.hex) == hash)
        #expect(try AssetWire.hash(hash.hex.uppercased()) == hash)
        for bad in ["", "abc", String(hash.hex.dropLast()) + "g", hash.hex + "0"] {
            do {
                _ = try AssetWire.hash(bad)
                Issue.record("\(bad) accepted")
            } catch {
                #expect(error.field == "sha256")
            }
        }
    }

    @Test("an ETag comes back quoted, bare or weak; anything else is not one")
    func etags() {
        let hash = ContentHash.of(Array("coco".utf8))
        #expect(AssetWire.etag(hash.etag) == hash)
        #expect(AssetWire.etag(hash.hex) == hash)
        #expect(AssetWire.etag("W/" + hash.etag) == hash)
        #expect(AssetWire.etag(" " + hash.etag + " ") == hash)
        #expect(AssetWire.etag("\"" + hash.hex) == nil)
        #expect(AssetWire.etag("*") == nil)
        #expect(AssetWire.etag("") == nil)
    }

    @Test("a present asset as a message: the hash is the quoted ETag, dimensions from the header")
    func presentAsset() throws {
        let name = try AssetName(app: "com.example.pixar", name: "posters/coco")
        let hash = ContentHash.of([9])
        var catalog = AssetCatalog(clock: VirtualClock(start: start))
        _ = catalog.commit(
            UploadSession.Verified(
                name: name, use: .liveActivity(.lockScreen), hash: hash, size: 1234,
                image: ImageInfo(format: .jpeg, width: 640, height: 480)))
        catalog.pin([name], holder: "activity:1")
        guard case .present(let metadata) = catalog.lookup(name) else {
            Issue.record("not stored")
            return
        }
        let asset = AssetWire.asset(metadata)
        #expect(asset.bundleId == "com.example.pixar")
        #expect(asset.name == "posters/coco")
        #expect(asset.sha256 == hash.hex)
        #expect(asset.etag == "\"\(hash.hex)\"")
        #expect((asset.size, asset.width, asset.height) == (1234, 640, 480))
        #expect(asset.format == .jpeg)
        #expect(asset.use == GlimpseAppV1.AssetDeclaration.Use.liveActivityLockScreen)
        #expect(asset.storedAt == GoogleProtobuf.Timestamp(start))
        #expect(asset.pinned && !asset.evicted)
        let evicted = try #require(AssetWire.asset(.evicted(name, hash), pinned: false))
        #expect(evicted.evicted && evicted.sha256 == hash.hex && evicted.size == 0)
        #expect(AssetWire.asset(.unknown(name), pinned: false) == nil)
    }

    @Test("a verified upload round-trips through its journal record")
    func journalRecord() throws {
        let verified = UploadSession.Verified(
            name: try AssetName(app: "com.example.pixar", name: "posters/coco"), use: .liveActivity(.minimal),
            hash: ContentHash.of([1]), size: 99, image: ImageInfo(format: .png, width: 40, height: 30))
        let catalog = AssetCatalog(clock: VirtualClock())
        #expect(try AssetWire.verified(AssetWire.record(verified), in: catalog) == verified)
        var bad = AssetWire.record(verified)
        bad.format = .unspecified
        #expect(throws: InvalidField.self) { try AssetWire.verified(bad, in: catalog) }
    }

    static let name = try! AssetName(app: "com.example.pixar", name: "posters/coco")

    @Test(
        "each refusal is a status naming its field",
        arguments: [
            (AssetError.invalidName(.emptySegment), RefusalStage.request, StatusCode.invalidArgument, "name:"),
            (.unsupportedImage(.unsupportedFormat(detected: "GIF")), .chunk, .invalidArgument, "chunk: GIF"),
            (
                .imageAreaTooLarge(width: 1024, height: 1024, limit: 718_080), .chunk, .invalidArgument,
                "chunk: a 1024×1024"
            ),
            (
                .imageLargerThanPresentation(.minimal, width: 500, height: 500, maxWidth: 135, maxHeight: 110), .chunk,
                .invalidArgument, "chunk:"
            ),
            (.assetTooLarge(size: 20 << 20, limit: 10 << 20), .header, .invalidArgument, "size:"),
            (.assetTooLarge(size: 20 << 20, limit: 10 << 20), .chunk, .invalidArgument, "chunk:"),
            (.sizeMismatch(expected: 10, received: 12), .chunk, .invalidArgument, "chunk: past the declared size"),
            (.sizeMismatch(expected: 10, received: 4), .end, .invalidArgument, "size:"),
            (
                .integrityMismatch(expected: ContentHash.of([1]), actual: ContentHash.of([2])), .end, .invalidArgument,
                "sha256:"
            ),
            (.budgetExhausted(needed: 10, evictable: 0), .end, .resourceExhausted, "size:"),
            (
                .unknownAsset(MappingTests.name), .request, .notFound,
                "name: com.example.pixar has no asset posters/coco"
            ),
            (.evicted(MappingTests.name, ContentHash.of([3])), .request, .notFound, "name: posters/coco"),
            (.blobCorrupt(ContentHash.of([4])), .request, .dataLoss, ContentHash.of([4]).hex),
        ])
    func refusals(error: AssetError, stage: RefusalStage, code: StatusCode, words: String) {
        let status = error.rpcError(at: stage)
        #expect(status.code == code)
        #expect(status.message.contains(words), "\(status.message)")
    }
}
