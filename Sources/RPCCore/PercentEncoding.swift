/// `grpc-message` encoding: the message as UTF-8, with every byte outside 0x20...0x7E and
/// `%` itself written as `%XX`.
public enum PercentEncoding {
    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    public static func encode(_ message: String) -> String {
        let utf8 = Array(message.utf8)
        guard utf8.contains(where: needsEscape) else { return message }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if needsEscape(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes. A `%` not followed by two hex digits stays as it is (as
    /// grpc-core does: a bad escape must not lose the message); bytes that are not UTF-8
    /// become U+FFFD.
    public static func decode<Bytes: Collection<UInt8>>(_ encoded: Bytes) -> String {
        let bytes = Array(encoded)
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ encoded: String) -> String { decode(Array(encoded.utf8)) }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "%")
    }

    private static func hexValue(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
