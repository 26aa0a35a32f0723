/// `grpc-message` encoding: the message as UTF-8, with every byte outside 0x20...0x7E and
/// `%` itself written as `%XX`; a space at either end too, since a header value may not
/// begin or end with whitespace (RFC 9113 §8.2.1: nghttp2 and other peers reset a stream
/// whose header does), and `%20` decodes to the same space.
public enum PercentEncoding {
    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// What ends a message `encode(_:limit:)` cut short: "…[truncated]", encoded.
    public static let truncationMarker = "%E2%80%A6[truncated]"

    /// The encoded message, at most `limit` bytes long (`limit` is at least the marker's
    /// length): a longer one is cut at a character boundary and ends with
    /// `truncationMarker` (a status message too long for a header block would never be
    /// sent at all, and the call would hang; the HTTP/2 transport's limit is
    /// `HeaderEncoder.statusMessageLimit`).
    public static func encode(_ message: String, limit: Int = .max) -> String {
        let utf8 = Array(message.utf8)
        func escapes(_ i: Int) -> Bool {
            needsEscape(utf8[i]) || (utf8[i] == UInt8(ascii: " ") && (i == 0 || i == utf8.count - 1))
        }
        let encodedCount = utf8.indices.reduce(0) { $0 + (escapes($1) ? 3 : 1) }
        if encodedCount == utf8.count, encodedCount <= limit { return message }
        // Past the limit: whole characters (a UTF-8 lead byte and its continuation bytes)
        // while they leave room for the marker, so a cut never splits one or an escape.
        let room = encodedCount <= limit ? Int.max : limit - truncationMarker.utf8.count
        var out: [UInt8] = []
        out.reserveCapacity(min(encodedCount, limit))
        var start = 0
        while start < utf8.count {
            var end = start + 1
            while end < utf8.count, utf8[end] & 0xC0 == 0x80 { end += 1 }
            let size = (start..<end).reduce(0) { $0 + (escapes($1) ? 3 : 1) }
            if out.count + size > room { break }
            for i in start..<end {
                if escapes(i) {
                    out.append(UInt8(ascii: "%"))
                    out.append(hex[Int(utf8[i] >> 4)])
                    out.append(hex[Int(utf8[i] & 0x0F)])
                } else {
                    out.append(utf8[i])
                }
            }
            start = end
        }
        if start < utf8.count { out.append(contentsOf: truncationMarker.utf8) }
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
                let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
            {
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
