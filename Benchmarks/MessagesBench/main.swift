// Encode/decode cost of the generated Swift message types, beside protobuf-c's own
// pack + unpack of the same message in the same run. Run through Benchmarks/messages.sh
// (release build). Prints ns per operation (best of several rounds) and the ratio.
import CProtobufC
import GlimpseMessages

#if canImport(Glibc)
import Glibc
#endif

typealias W = GlimpseWidgetV1

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func nanoseconds(_ body: () throws -> Void) rethrows -> UInt64 {
    let start = ContinuousClock.now
    try body()
    let d = ContinuousClock.now - start
    return UInt64(d.components.seconds) * 1_000_000_000 + UInt64(d.components.attoseconds / 1_000_000_000)
}

/// Best-of-`rounds` nanoseconds per iteration.
func measure(_ iterations: Int, rounds: Int = 7, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let ns = try nanoseconds { for _ in 0..<iterations { try body() } }
        best = min(best, Double(ns) / Double(iterations))
    }
    return best
}

struct Row {
    let name: String
    let bytes: Int
    let swiftEncode: Double  // serialize(appendingTo:) into a reused buffer, as C packs into one
    let swiftEncodeArray: Double  // serializedBytes(): a new [UInt8] per message
    let swiftDecode: Double
    let cPack: Double
    let cUnpack: Double
    var ratio: Double { (swiftEncode + swiftDecode) / (cPack + cUnpack) }
}

/// protobuf-c alone: pack a C struct that already exists, unpack it (malloc) and free it.
func measureC<M: _ProtoCBacked>(_ value: M, iterations: Int) throws -> (pack: Double, unpack: Double) {
    try ProtoArena.with(capacity: 64 * 1024) { arena in
        let c = try arena.lower(value, depth: -1)
        let base = UnsafeRawPointer(c).assumingMemoryBound(to: ProtobufCMessage.self)
        let size = protobuf_c_message_get_packed_size(base)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(size, 1))
        defer { buffer.deallocate() }
        let pack = measure(iterations) {
            let n = protobuf_c_message_get_packed_size(base)
            blackHole(protobuf_c_message_pack(base, buffer) + n)
        }
        let descriptor = M._descriptor.pointer.assumingMemoryBound(to: ProtobufCMessageDescriptor.self)
        let unpack = measure(iterations) {
            let m = protobuf_c_message_unpack(descriptor, nil, size, buffer)
            protobuf_c_message_free_unpacked(m, nil)
        }
        return (pack, unpack)
    }
}

func row<M: _ProtoCBacked>(_ name: String, _ value: M, iterations: Int) throws -> Row {
    let bytes = try value.serializedBytes()
    let back = try M(serializedBytes: bytes)
    precondition(back == value, "round trip failed")
    let encodeArray = try measure(iterations) { blackHole(try value.serializedBytes()) }
    var reused: [UInt8] = []
    reused.reserveCapacity(bytes.count)
    let encode = try measure(iterations) {
        reused.removeAll(keepingCapacity: true)
        try value.serialize(appendingTo: &reused)
    }
    precondition(reused == bytes)
    let decode = try measure(iterations) { blackHole(try M(serializedBytes: bytes)) }
    let c = try measureC(value, iterations: iterations)
    return Row(
        name: name, bytes: bytes.count, swiftEncode: encode, swiftEncodeArray: encodeArray,
        swiftDecode: decode, cPack: c.pack, cUnpack: c.unpack)
}

func pixarEntry() -> W.TimelineEntry {
    let stack = W.Stack(
        axis: .vertical, spacing: 4, alignment: W.Alignment(horizontal: .leading),
        children: [
            W.View(
                kind: .text(W.Text(content: "Coco")),
                modifiers: [W.Modifier(kind: .font(W.Font(textStyle: .headline))), W.Modifier(kind: .lineLimit(2))]),
            W.View(
                kind: .text(W.Text(content: "42% watched")),
                modifiers: [
                    W.Modifier(kind: .font(W.Font(textStyle: .caption))),
                    W.Modifier(kind: .foregroundStyle(W.ShapeStyle(kind: .hierarchical(.secondary)))),
                ]),
            W.View(
                kind: .button(
                    W.Button(
                        intent: W.IntentInvocation(
                            intentType: "MarkFilmWatchedIntent",
                            parameters: ["filmID": W.ParameterValue(kind: .stringValue("coco"))]),
                        label: W.View(kind: .symbol(W.SymbolImage(systemName: "checkmark.circle.fill"))), style: .plain)
                )),
            W.View(
                kind: .gauge(
                    W.Gauge(
                        value: 0.42, label: W.View(kind: .symbol(W.SymbolImage(systemName: "film"))),
                        style: .accessoryCircularCapacity))),
        ])
    return W.TimelineEntry(
        date: GoogleProtobuf.Timestamp(seconds: 1_767_225_600),
        relevance: W.TimelineEntryRelevance(score: 0.5, duration: GoogleProtobuf.Duration(seconds: 900)),
        view: W.View(
            kind: .stack(stack),
            modifiers: [
                W.Modifier(kind: .padding(W.Padding(edges: .all))),
                W.Modifier(
                    kind: .containerBackground(W.ContainerBackground(style: W.ShapeStyle(kind: .fill(.tertiary))))),
            ]),
        widgetUrl: "pixartracker://film/coco")
}

// `glimpse-bench-messages profile-small-encode`: a long loop of one case, for a profiler.
if CommandLine.arguments.dropFirst().first == "profile-small-encode" {
    let value = W.IntentInvocation(intentType: "CheckInIntent")
    for _ in 0..<20_000_000 { blackHole(try value.serializedBytes()) }
    exit(0)
}

let rows = try [
    row("IntentInvocation (small)", W.IntentInvocation(intentType: "CheckInIntent"), iterations: 1_000_000),
    row("TimelineEntry + view tree", pixarEntry(), iterations: 100_000),
]

/// `x` with one decimal, right-aligned in `width`.
func fixed(_ x: Double, _ width: Int = 8, decimals: Int = 1) -> String {
    let scale = decimals == 2 ? 100.0 : 10.0
    let n = Int((x * scale).rounded())
    let whole = n / Int(scale), frac = n % Int(scale)
    let fracText = decimals == 2 && frac < 10 ? "0\(frac)" : "\(frac)"
    return pad("\(whole).\(fracText)", width)
}
func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
func padRight(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }

print("message layer: ns per message, best of 7 rounds (release)")
print(
    "swift enc = serialize(appendingTo:) into a reused buffer (as C packs into one); enc[] = serializedBytes(), a new array"
)
print(
    padRight("message", 27) + pad("bytes", 6) + pad("enc[]", 8) + pad("swift enc", 11) + pad("swift dec", 11)
        + pad("swift e+d", 11)
        + "  |" + pad("C pack", 8) + pad("C unpack", 10) + pad("C p+u", 8) + "  | ratio")
for r in rows {
    print(
        padRight(r.name, 27) + pad("\(r.bytes)", 6) + fixed(r.swiftEncodeArray, 8) + fixed(r.swiftEncode, 11)
            + fixed(r.swiftDecode, 11)
            + fixed(r.swiftEncode + r.swiftDecode, 11) + "  |" + fixed(r.cPack, 8) + fixed(r.cUnpack, 10)
            + fixed(r.cPack + r.cUnpack, 8) + "  | " + fixed(r.ratio, 4, decimals: 2) + "x")
}
let worst = rows.map(\.ratio).max()!
print("target: swift encode+decode <= 2.5x protobuf-c pack+unpack; worst here" + fixed(worst, 5, decimals: 2) + "x")
