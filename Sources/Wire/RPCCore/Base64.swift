/// Standard-alphabet base64 for `-bin` metadata: we send padded, and accept padded or
/// unpadded input as the gRPC protocol asks.
public enum Base64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            out.append(b1.map { alphabet[Int(($0 & 0x0F) << 2 | (b2 ?? 0) >> 6)] } ?? UInt8(ascii: "="))
            out.append(b2.map { alphabet[Int($0 & 0x3F)] } ?? UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes padded or unpadded base64; nil on any character outside the alphabet, on
    /// padding in the middle, or on an impossible length.
    public static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        var end = text.count
        var trimmed = Array(text)
        while end > 0, trimmed[end - 1] == UInt8(ascii: "=") { end -= 1 }
        if text.count - end > 2 { return nil }
        if text.count != end, text.count % 4 != 0 { return nil }
        trimmed.removeLast(text.count - end)
        if trimmed.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(trimmed.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for char in trimmed {
            guard let value = sextet(char) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    private static func sextet(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
