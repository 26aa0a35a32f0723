package import Crypto
import GlimpseVocabulary

/// A SHA-256 digest naming a blob in the content-addressed store. Its lowercase hex
/// form is the blob's key and, quoted, its HTTP ETag.
package struct ContentHash: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let hex: String

    package init(_ digest: SHA256.Digest) {
        self.hex = Self.hex(Array(digest))
    }

    /// Accepts 64 hex digits in either case.
    package init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64, utf8.allSatisfy({ Self.digitValue($0) != nil }) else { return nil }
        self.hex = hex.lowercased()
    }

    /// The hash of `bytes` in one go.
    package static func of(_ bytes: [UInt8]) -> ContentHash {
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return ContentHash(hasher.finalize())
    }

    /// `"<hex>"`, for ETag / If-None-Match.
    package var etag: String { "\"" + hex + "\"" }

    package var description: String { hex }

    package static func < (a: Self, b: Self) -> Bool { a.hex < b.hex }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func digitValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}

extension ContentHash: StringCoded {
    package var codedString: String { hex }
    package init?(codedString: String) { self.init(hex: codedString) }
}
