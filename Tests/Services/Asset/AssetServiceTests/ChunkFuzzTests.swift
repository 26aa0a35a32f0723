import AssetEngine
import AssetMapping
import AssetService
import Foundation
import GlimpseVocabulary
import GlimpseMessages
import RPCCore
import Testing

/// Mutated PNG and JPEG headers in random chunk sequences: every case ends accepted or
/// refused with a status naming a field, never a crash; when the declared size is right,
/// the outcome does not depend on how the bytes were cut into chunks; what is accepted is
/// what an independent read of the whole header says, within its use's limit.
@Suite("Asset chunk fuzzing")
struct ChunkFuzzTests {
    /// What happened to one upload, without the parts that depend on the chunking (how
    /// many bytes had arrived when it was refused).
    enum Outcome: Hashable, CustomStringConvertible {
        case accepted(ContentHash, ImageInfo)
        case refused(StatusCode, field: String, rule: String)

        var description: String {
            switch self {
            case .accepted(let hash, let image):
                "accepted \(image.format) \(image.width)×\(image.height) \(hash.hex.prefix(8))"
            case .refused(let code, let field, let rule): "\(code) \(field) \(rule)"
            }
        }
    }

    /// One fuzz case: the bytes, what is declared about them, and two ways to cut them.
    struct Case {
        var bytes: [UInt8]
        var use: AssetUse
        var declaredSize: Int
        var declaredHash: ContentHash
        var cuts: [[Int]]
    }

    static let fields = ["chunk:", "size:", "sha256:", "name:"]

    /// Runs a case through the catalog's upload session as the Put handler does.
    static func outcome(_ c: Case, cuts: [Int], catalog: AssetCatalog) -> Outcome {
        let refused = { (error: AssetError, stage: RefusalStage) -> Outcome in
            let status = error.rpcError(at: stage)
            let field = fields.first { status.message.hasPrefix($0) } ?? "(none) \(status.message)"
            return .refused(
                status.code, field: field, rule: Mirror(reflecting: error).children.first?.label ?? "\(error)")
        }
        var session: UploadSession
        switch catalog.beginUpload(
            "com.example.fuzz/image", use: c.use, expectedHash: c.declaredHash, totalSize: c.declaredSize)
        {
        case .success(let s): session = s
        case .failure(let error): return refused(error, .header)
        }
        var start = 0
        for cut in cuts + [c.bytes.count] where cut >= start {
            do { try session.append(Array(c.bytes[start..<cut])) } catch { return refused(error, .chunk) }
            start = cut
        }
        do {
            let verified = try session.verify()
            return .accepted(verified.hash, verified.image)
        } catch {
            return refused(error, .end)
        }
    }

    static func bases() -> [[UInt8]] {
        [
            Images.png(width: 100, height: 80), Images.png(width: 847, height: 847),
            Images.png(width: 848, height: 847),
            Images.png(width: 1, height: 1, dataBytes: 0), Images.png(width: 135, height: 110),
            Images.jpeg(width: 640, height: 480), Images.jpeg(width: 1024, height: 1024, app1Bytes: 700),
            Images.jpeg(width: 135, height: 110, app1Bytes: 40), Images.jpeg(width: 1113, height: 480),
        ]
    }

    /// A mutation of `base`: bytes flipped in the header, a length field bent, bytes
    /// inserted or cut, a truncation, a foreign signature.
    static func mutate(_ base: [UInt8], _ random: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = base
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let header = min(bytes.count, 48)
            guard header > 0 else { break }
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1:  // flip a byte of the header
                let i = Int.random(in: 0..<header, using: &random)
                bytes[i] ^= UInt8.random(in: 1...255, using: &random)
            case 2:  // set a byte to a marker-ish value
                let i = Int.random(in: 0..<header, using: &random)
                bytes[i] = [0x00, 0xFF, 0xD8, 0xD9, 0xDA, 0xC0, 0xC4, 0x89].randomElement(using: &random)!
            case 3:  // truncate
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            case 4:  // insert bytes in the header
                let i = Int.random(in: 0...min(bytes.count, header), using: &random)
                bytes.insert(
                    contentsOf: (0..<Int.random(in: 1...6, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }, at: i)
            case 5:  // cut bytes from the header
                guard bytes.count > 2 else { break }
                let i = Int.random(in: 0..<min(bytes.count - 1, header), using: &random)
                bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...6, using: &random)))
            case 6:  // a foreign signature
                let signatures: [[UInt8]] = [
                    Array("GIF89a".utf8), Array("RIFF\0\0\0\0WEBP".utf8), [0, 0, 0, 24] + Array("ftypheic".utf8),
                    Array("BM".utf8), Array("<svg".utf8), [0xFF, 0xD8, 0xFF], [0x89, 0x50],
                ]
                let signature = signatures.randomElement(using: &random)!
                bytes.replaceSubrange(0..<min(bytes.count, signature.count), with: signature)
            default:  // bend a big-endian dimension or length field
                guard bytes.count > 24 else { break }
                let i = Int.random(in: 8...min(bytes.count - 2, 40), using: &random)
                bytes[i] = UInt8.random(in: 0...255, using: &random)
                bytes[i + 1] = UInt8.random(in: 0...255, using: &random)
            }
        }
        return bytes
    }

    static func cuts(_ count: Int, _ random: inout some RandomNumberGenerator) -> [Int] {
        guard count > 1 else { return [] }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return []  // one chunk
        case 1: return Array(1..<count)  // byte by byte
        default:
            return (0..<Int.random(in: 1...8, using: &random)).map { _ in Int.random(in: 0...count, using: &random) }
                .sorted()
        }
    }

    static func makeCase(_ random: inout some RandomNumberGenerator) -> Case {
        let base = bases().randomElement(using: &random)!
        let bytes = Bool.random(using: &random) || base.isEmpty ? mutate(base, &random) : base
        let uses: [AssetUse] = [
            .widget, .widget, .liveActivity(.minimal), .liveActivity(.compact), .liveActivity(.lockScreen),
        ]
        var declaredSize = bytes.count
        if Int.random(in: 0..<10, using: &random) == 0 { declaredSize += Int.random(in: -3...3, using: &random) }
        declaredSize = max(1, declaredSize)  // a declared size of 0 is the handler's own refusal
        let declaredHash = Int.random(in: 0..<10, using: &random) == 0 ? ContentHash.of([1]) : ContentHash.of(bytes)
        return Case(
            bytes: bytes, use: uses.randomElement(using: &random)!, declaredSize: declaredSize,
            declaredHash: declaredHash,
            cuts: [cuts(bytes.count, &random), cuts(bytes.count, &random)])
    }

    @Test("20,000 mutated uploads through the catalog: each accepted as its header says, or refused naming a field")
    func catalog() throws {
        var random = SeededRandom(seed: 0xA55E7)
        let catalog = AssetCatalog(clock: VirtualClock())
        var accepted = 0
        var rules: [String: Int] = [:]
        for n in 0..<20_000 {
            let c = Self.makeCase(&random)
            let first = Self.outcome(c, cuts: c.cuts[0], catalog: catalog)
            let second = Self.outcome(c, cuts: c.cuts[1], catalog: catalog)
            if c.declaredSize == c.bytes.count {
                #expect(first == second, "case \(n): \(first) vs \(second) for \(c.bytes.prefix(32))")
            } else {
                // Which refusal comes first (a chunk past the size, or the header's) depends on
                // where the cuts fall; that it is refused does not.
                guard case .refused = first, case .refused = second else {
                    Issue.record("case \(n): a size other than the bytes' was accepted: \(first), \(second)")
                    continue
                }
            }
            switch first {
            case .accepted(let hash, let image):
                accepted += 1
                #expect(hash == ContentHash.of(c.bytes) && hash == c.declaredHash && c.declaredSize == c.bytes.count)
                // An independent read of the whole header agrees, and the image fits its use.
                let whole = try? ImageHeaderParser.inspect(Array(c.bytes.prefix(catalog.limits.headerSniffLimit)))
                #expect(whole == .found(image), "case \(n)")
                #expect(catalog.limits.violation(of: image, for: c.use) == nil, "case \(n)")
            case .refused(let code, let field, let rule):
                rules[rule, default: 0] += 1
                #expect(code == .invalidArgument, "case \(n): \(code) \(rule)")
                #expect(Self.fields.contains(field), "case \(n): \(field)")
            }
        }
        // The mutations reach every rule, and a good share still passes.
        #expect(accepted > 2_000, "\(accepted) accepted; refusals \(rules)")
        for rule in [
            "integrityMismatch", "sizeMismatch", "unsupportedImage", "imageAreaTooLarge", "imageLargerThanPresentation",
        ] {
            #expect(rules[rule, default: 0] > 50, "\(rule): \(rules)")
        }
    }

    @Test(
        "500 mutated uploads through the service's Put: the same verdicts, accepted bytes read back, nothing left staged"
    )
    func service() async throws {
        let scratch = try Scratch("asset-fuzz")
        defer { scratch.remove() }
        var random = SeededRandom(seed: 0xF022)
        let catalog = AssetCatalog(clock: VirtualClock())
        try await Service.with(scratch.url) { service in
            let auth = try await service.register("com.example.fuzz")
            var stored = Set<String>()
            for n in 0..<500 {
                let c = Self.makeCase(&random)
                let expected = Self.outcome(c, cuts: c.cuts[0], catalog: catalog)
                var messages = [
                    Service.header(
                        "com.example.fuzz", "fuzz/\(n)", c.bytes, use: AssetWire.wire(c.use),
                        sha256: c.declaredHash.hex, size: UInt64(c.declaredSize))
                ]
                var start = 0
                for cut in c.cuts[0] + [c.bytes.count] where cut >= start {
                    messages.append(GlimpseAssetV1.PutRequest(part: .chunk(Array(c.bytes[start..<cut]))))
                    start = cut
                }
                let (code, message) = await status { _ = try await service.put(messages, metadata: auth) }
                switch expected {
                case .accepted(let hash, _):
                    #expect(code == .ok, "case \(n): \(message)")
                    stored.insert(hash.hex)
                    #expect(try await service.get("com.example.fuzz", "fuzz/\(n)", metadata: auth).bytes == c.bytes)
                case .refused(let expectedCode, let field, _):
                    #expect(
                        code == expectedCode && message.hasPrefix(field),
                        "case \(n): \(code) \(message), expected \(expected)")
                }
            }
            #expect(scratch.stagingFiles.isEmpty)
            #expect(scratch.blobFiles == stored)
        }
    }
}

/// xorshift64*: the same cases every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 1 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
