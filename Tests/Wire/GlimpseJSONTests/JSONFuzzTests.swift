import GlimpseJSON
import Testing

/// SplitMix64: small, fast, and the same sequence on every platform, so a failure
/// reported as (seed, index) reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// An independent recognizer of the grammar GlimpseJSON accepts: RFC 8259, plus its
/// decisions (no byte order mark, surrogate escapes only in pairs, at most
/// `JSONParser.maximumDepth` nested containers). The fuzz oracle: the parser must accept
/// exactly what this accepts. Simple on purpose; it validates UTF-8 with the standard library.
struct ReferenceRecognizer {
    let b: [UInt8]
    var i = 0

    static func accepts(_ input: [UInt8]) -> Bool {
        var r = ReferenceRecognizer(b: input)
        r.whitespace()
        guard r.value(depth: 0) else { return false }
        r.whitespace()
        return r.i == input.count
    }

    func at(_ k: Int) -> UInt8? { k < b.count ? b[k] : nil }
    func isDigit(_ c: UInt8?) -> Bool { c.map { (0x30...0x39).contains($0) } ?? false }
    func isHex(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }

    mutating func eat(_ c: Unicode.Scalar) -> Bool {
        guard at(i) == UInt8(ascii: c) else { return false }
        i += 1
        return true
    }

    mutating func whitespace() {
        while let c = at(i), c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
    }

    mutating func value(depth: Int) -> Bool {
        guard let c = at(i) else { return false }
        switch Unicode.Scalar(c) {
        case "[":
            guard depth < JSONParser.maximumDepth else { return false }
            i += 1
            whitespace()
            if eat("]") { return true }
            while true {
                whitespace()
                guard value(depth: depth + 1) else { return false }
                whitespace()
                if eat(",") { continue }
                return eat("]")
            }
        case "{":
            guard depth < JSONParser.maximumDepth else { return false }
            i += 1
            whitespace()
            if eat("}") { return true }
            while true {
                whitespace()
                guard at(i) == UInt8(ascii: "\""), string() else { return false }
                whitespace()
                guard eat(":") else { return false }
                whitespace()
                guard value(depth: depth + 1) else { return false }
                whitespace()
                if eat(",") { continue }
                return eat("}")
            }
        case "\"": return string()
        case "t": return word("true")
        case "f": return word("false")
        case "n": return word("null")
        case "-", "0"..."9": return number()
        default: return false
        }
    }

    mutating func word(_ w: String) -> Bool {
        let w = Array(w.utf8)
        guard i + w.count <= b.count, Array(b[i..<i + w.count]) == w else { return false }
        i += w.count
        return true
    }

    mutating func number() -> Bool {
        _ = eat("-")
        guard isDigit(at(i)) else { return false }
        if !eat("0") { while isDigit(at(i)) { i += 1 } }
        if eat(".") {
            guard isDigit(at(i)) else { return false }
            while isDigit(at(i)) { i += 1 }
        }
        if eat("e") || eat("E") {
            _ = eat("+") || eat("-")
            guard isDigit(at(i)) else { return false }
            while isDigit(at(i)) { i += 1 }
        }
        return true
    }

    mutating func string() -> Bool {
        i += 1
        var run: [UInt8] = []  // raw bytes since the last escape: must be whole UTF-8 on its own
        var highSurrogatePending = false
        while let c = at(i) {
            if c == UInt8(ascii: "\"") {
                i += 1
                return !highSurrogatePending && String(validating: run, as: UTF8.self) != nil
            }
            if c < 0x20 { return false }
            if c == UInt8(ascii: "\\") {
                guard String(validating: run, as: UTF8.self) != nil, let e = at(i + 1) else { return false }
                run = []
                i += 2
                if e == UInt8(ascii: "u") {
                    guard i + 4 <= b.count, b[i..<i + 4].allSatisfy(isHex) else { return false }
                    let unit = UInt16(String(decoding: b[i..<i + 4], as: UTF8.self), radix: 16)!
                    i += 4
                    let isHigh = (0xD800...0xDBFF).contains(unit), isLow = (0xDC00...0xDFFF).contains(unit)
                    if highSurrogatePending {
                        guard isLow else { return false }
                        highSurrogatePending = false
                    } else if isLow {
                        return false
                    } else {
                        highSurrogatePending = isHigh
                    }
                } else {
                    guard !highSurrogatePending, Array(#""\/bfnrt"#.utf8).contains(e) else { return false }
                }
                continue
            }
            if highSurrogatePending { return false }
            run.append(c)
            i += 1
        }
        return false
    }
}

/// Mutates seed documents the way a fuzzer does: bit flips, byte replacement, insertion
/// of bytes and JSON fragments, deletion, truncation, splicing and chunk duplication.
struct Mutator {
    var rng: SplitMix64
    let seeds: [[UInt8]]

    static let interestingBytes: [UInt8] =
        Array(#"{}[]:,"\/-+.eE0129tfnulr u"#.utf8)
        + [
            0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1F, 0x7F, 0x80, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
            0xF0, 0xF4, 0xF5, 0xFE, 0xFF,
        ]
    static let fragments: [[UInt8]] =
        [
            #"\u"#, #"\ud800"#, #"\udc00"#, #"\uDBFF\uDFFF"#, #"\ud83d\ude00"#, #"\u0000"#, #"\u00"#, #"\"#, #"\\"#,
            "[", "]", "{", "}", #"{"a":"#, #"[{"":"#, "\"", "1e", "-", ".", "true", "null", "false", "0", "-0.0e+0",
            "1e999999", ",", ":", "\u{FEFF}", "é", "🍕", "\u{2028}", "/*", "//", "NaN", " \t\r\n",
        ].map { Array($0.utf8) } + [
            [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F],
        ]

    mutating func next() -> [UInt8] {
        if rng.below(8) == 0 {  // pure noise from the bytes that matter to JSON
            return (0..<rng.below(40)).map { _ in rng.pick(Self.interestingBytes) }
        }
        var input = rng.pick(seeds)
        for _ in 0..<(rng.below(2) == 0 ? 1 : 1 + rng.below(4)) { mutate(&input) }
        return input
    }

    mutating func mutate(_ x: inout [UInt8]) {
        let position = rng.below(x.count + 1)
        switch rng.below(9) {
        case 0 where !x.isEmpty: x[rng.below(x.count)] ^= 1 << UInt8(rng.below(8))
        case 1 where !x.isEmpty: x[rng.below(x.count)] = rng.pick(Self.interestingBytes)
        case 2 where !x.isEmpty: x[rng.below(x.count)] = UInt8(truncatingIfNeeded: rng.next())
        case 3: x.insert(rng.pick(Self.interestingBytes), at: position)
        case 4: x.insert(contentsOf: rng.pick(Self.fragments), at: position)
        case 5: x.removeSubrange(position..<min(x.count, position + 1 + rng.below(8)))
        case 6: x.removeSubrange(position...)
        case 7:
            let other = rng.pick(seeds)
            x = Array(x[..<position]) + other[rng.below(other.count + 1)...]
        default:
            let end = min(x.count, position + 1 + rng.below(16))
            x.insert(contentsOf: x[position..<end], at: rng.below(x.count + 1))
        }
    }
}

/// Random values of the kind the writer must encode: every class of scalar, arbitrary
/// number literals from the grammar, repeated keys, nesting up to the limit.
struct ValueGenerator {
    var rng: SplitMix64

    mutating func value(depth: Int = 1) -> JSONValue {
        switch rng.below(depth >= JSONParser.maximumDepth ? 4 : depth > 4 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(rng.below(2) == 0)
        case 2: return .number(numberLiteral())
        case 3: return .string(string())
        case 4: return .array((0..<rng.below(5)).map { _ in value(depth: depth + 1) })
        default:
            return .object(
                (0..<rng.below(5)).map { _ in
                    JSONMember(rng.below(3) == 0 ? rng.pick(["a", "", "a"]) : string(), value(depth: depth + 1))
                })
        }
    }

    mutating func digits(_ min: Int) -> String {
        String((0..<min + rng.below(6)).map { _ in Character(Unicode.Scalar(UInt8(0x30 + rng.below(10)))) })
    }

    mutating func numberLiteral() -> String {
        var s = rng.below(3) == 0 ? "-" : ""
        s += rng.below(4) == 0 ? "0" : String(1 + rng.below(9)) + digits(0)
        if rng.below(2) == 0 { s += "." + digits(1) }
        if rng.below(3) == 0 { s += rng.pick(["e", "E"]) + rng.pick(["", "+", "-"]) + digits(1) }
        return s
    }

    mutating func scalar() -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x20...0x7F, 0x22...0x22, 0x5C...0x5C, 0x2F...0x2F, 0x80...0x7FF, 0x800...0xD7FF,
            0xE000...0xFFFF, 0x10000...0x10FFFF, 0x2028...0x2029, 0xFEFF...0xFEFF,
        ]
        let range = rng.pick(ranges)
        return Unicode.Scalar(range.lowerBound + UInt32(rng.below(Int(range.upperBound - range.lowerBound) + 1)))!
    }

    mutating func string() -> String {
        var s = ""
        for _ in 0..<rng.below(8) { s.unicodeScalars.append(scalar()) }
        return s
    }
}

/// The invariants every input must keep; nil when it does. `parsed` says whether it parsed.
func violation(_ input: [UInt8], parsed: inout Bool) -> String? {
    let expected = ReferenceRecognizer.accepts(input)
    let value: JSONValue
    do {
        value = try JSONParser.parse(input)
        parsed = true
    } catch {
        if expected { return "refused (\(error)) but the grammar accepts it" }
        if !(0...input.count).contains(error.offset) { return "offset \(error.offset) outside the input" }
        if (try? JSONObjectBytes(validating: input)) != nil {
            return "JSONObjectBytes accepted what the parser refuses"
        }
        return nil
    }
    if !expected { return "accepted \(value) but the grammar refuses it" }
    let encoded = value.serialized()
    guard ReferenceRecognizer.accepts(encoded) else { return "serialized() is not JSON: \(encoded)" }
    guard let again = try? JSONParser.parse(encoded), again == value else {
        return "serialized() re-parses differently"
    }
    guard again.serialized() == encoded else { return "serialized() is not a fixed point" }
    if value.isObject {
        guard let kept = try? JSONObjectBytes(validating: input), kept.bytes == input, kept.value == value,
            let compact = try? JSONObjectBytes(value), compact.bytes == encoded,
            // What the parser produced keeps the invariants without a second parse.
            let trusted = try? JSONObjectBytes(parsed: value), trusted.bytes == encoded, trusted.value == value
        else { return "JSONObjectBytes disagrees with the parser" }
    }
    return nil
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

@Suite("Fuzz: random and mutated input")
struct JSONFuzzTests {
    static let seeds: [[UInt8]] = {
        var generator = ValueGenerator(rng: SplitMix64(seed: 0x5EED))
        let generated = (0..<100).map { _ in generator.value().serialized() }
        let pushes = [
            #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"driverName":"Tim","eta":12.50},"alert":{"title":"On the way","body":"\u00e9\ud83c\udf55"}}}"#,
            #"{"aps":{"timestamp":1700000000,"event":"start","attributes-type":"PizzaAttributes","attributes":{"numberOfPizzas":1,"totalAmount":"$99"},"content-state":{"driverName":"Tim"},"relevance-score":0.5,"stale-date":1700003600,"dismissal-date":1.7e9}}}"#,
            #"{"aps":{"event":"end","timestamp":-0,"content-state":{"a":[1,-2.5e-3,true,false,null,"x\\y\"z"]}}}"#,
        ].map { Array($0.utf8) }
        let valid = (SuiteCases.accepted + SuiteCases.acceptedByChoice).map(\.bytes) + pushes + generated
        let invalid = (SuiteCases.rejected + SuiteCases.rejectedByChoice).map(\.bytes)
        // Valid documents three times over, so more mutants stay valid and round-trip.
        return (valid + valid + valid + invalid).filter { $0.count <= 512 }
    }()

    @Test("the reference recognizer agrees with every suite case (checks the oracle itself)")
    func oracleAgreesWithSuite() {
        for c in SuiteCases.accepted + SuiteCases.acceptedByChoice {
            #expect(ReferenceRecognizer.accepts(c.bytes), "\(c.name)")
        }
        for c in SuiteCases.rejected + SuiteCases.rejectedByChoice {
            #expect(!ReferenceRecognizer.accepts(c.bytes), "\(c.name)")
        }
    }

    // 4 x 25,000 = 100,000 inputs, run in parallel. A failure names its seed and index;
    // `Mutator(rng: SplitMix64(seed: seed), seeds: seeds)` replays the sequence.
    @Test(
        "100,000 random and mutated inputs: no crash; the parser accepts exactly the grammar; accepted input round-trips",
        arguments: [1, 2, 3, 4] as [UInt64])
    func mutatedInputs(seed: UInt64) {
        var mutator = Mutator(rng: SplitMix64(seed: seed), seeds: Self.seeds)
        var failures: [String] = []
        var accepted = 0
        for index in 0..<25_000 {
            let input = mutator.next()
            var parsed = false
            if let problem = violation(input, parsed: &parsed) {
                failures.append("seed \(seed) #\(index) [\(hex(input))]: \(problem)")
            }
            if parsed { accepted += 1 }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5).joined(separator: "\n"))")
        #expect(accepted > 1_000, "the mutator should keep some inputs valid (\(accepted))")
    }

    @Test("random values: serialized() is JSON the parser reads back as the same value", arguments: [7, 8] as [UInt64])
    func generatedValues(seed: UInt64) throws {
        var generator = ValueGenerator(rng: SplitMix64(seed: seed))
        for index in 0..<2_500 {
            let value = generator.value()
            let encoded = value.serialized()
            #expect(ReferenceRecognizer.accepts(encoded), "seed \(seed) #\(index)")
            #expect(try JSONParser.parse(encoded) == value, "seed \(seed) #\(index)")
            if value.isObject { #expect(try JSONObjectBytes(value).bytes == encoded) }
        }
    }
}
