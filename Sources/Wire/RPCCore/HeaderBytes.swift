/// Small helpers for reading header fields as raw bytes, so that the hot path builds
/// Strings only for values it keeps.
enum HeaderBytes {
    @inline(__always)
    static func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let lit = literal.utf8Start
        for i in 0..<bytes.count where bytes[i] != lit[i] { return false }
        return true
    }

    @inline(__always)
    static func hasPrefix(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count >= literal.utf8CodeUnitCount else { return false }
        let lit = literal.utf8Start
        for i in 0..<literal.utf8CodeUnitCount where bytes[i] != lit[i] { return false }
        return true
    }

    @inline(__always)
    static func hasSuffix(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        let lit = literal.utf8Start
        let start = bytes.count - n
        for i in 0..<n where bytes[start + i] != lit[i] { return false }
        return true
    }

    /// Byte equality, eight bytes at a time (a generic `elementsEqual` went byte by byte).
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i + 8 <= a.count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            {
                return false
            }
            i += 8
        }
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    static func string(_ bytes: UnsafeRawBufferPointer, _ cache: HeaderStringCache? = nil) -> String {
        cache?.string(for: bytes) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// `application/grpc`, optionally followed by `+format` or `;parameters`.
    static func isGRPCContentType(_ value: UnsafeRawBufferPointer) -> Bool {
        guard hasPrefix(value, "application/grpc") else { return false }
        let n = "application/grpc".utf8.count
        return value.count == n || value[n] == UInt8(ascii: "+") || value[n] == UInt8(ascii: ";")
    }

    static func parseStatusCode(_ value: UnsafeRawBufferPointer) -> Int? {
        guard !value.isEmpty, value.count <= 9 else { return nil }
        var result = 0
        for byte in value {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            result = result * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return result
    }

    /// Custom metadata: text keys keep their value as text, `-bin` keys are base64-decoded.
    /// Returns false for a `-bin` value that is not base64.
    static func addMetadata(
        name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, to metadata: inout Metadata,
        cache: HeaderStringCache? = nil
    ) -> Bool {
        if hasSuffix(name, "-bin") {
            guard let decoded = Base64.decode(value) else { return false }
            metadata.appendLowercased(key: string(name, cache), value: .binary(decoded))
        } else {
            metadata.appendLowercased(key: string(name, cache), value: .string(string(value, cache)))
        }
        return true
    }
}

/// The size HTTP/2 charges for a header field (RFC 9113 §6.5.2): name + value + 32.
public enum HeaderListSize {
    public static func fieldSize(nameCount: Int, valueCount: Int) -> Int { nameCount + valueCount + 32 }
}

/// Strings for header bytes that repeat on a connection (the path, user-agent, the names of
/// custom metadata): the last few are kept and handed out again instead of allocating.
/// Owned by one connection's thread; not Sendable. (So its state skips the dynamic
/// exclusivity checks: simple accesses on one thread that never overlap.)
public final class HeaderStringCache {
    /// A kept string with its length and a digest of its first and last bytes, so that a
    /// lookup compares bytes only with a likely match and touches no other string (walking
    /// the strings themselves retained and released each one).
    private struct Entry {
        let count: Int
        let digest: UInt64
        let string: String
    }

    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var next = 0
    private let capacity: Int

    public init(capacity: Int = 16) {
        self.capacity = capacity
        entries.reserveCapacity(capacity)
    }

    public func string(for bytes: UnsafeRawBufferPointer) -> String {
        let digest = Self.digest(bytes)
        let index = entries.withUnsafeBufferPointer { entries -> Int? in
            for i in entries.indices where entries[i].count == bytes.count && entries[i].digest == digest {
                if Self.matches(entries[i].string, bytes) { return i }
            }
            return nil
        }
        if let index { return entries[index].string }
        let made = String(decoding: bytes, as: UTF8.self)
        let entry = Entry(count: bytes.count, digest: digest, string: made)
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % capacity
        }
        return made
    }

    /// The first and the last (up to) eight bytes: paths of one service share their start.
    private static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard bytes.count >= 8 else {
            var value: UInt64 = 0
            for byte in bytes { value = value << 8 | UInt64(byte) }
            return value
        }
        let first = bytes.loadUnaligned(as: UInt64.self)
        let last = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        return first ^ (last << 1 | last >> 63)
    }

    private static func matches(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { utf8 in
            HeaderBytes.same(UnsafeRawBufferPointer(utf8), bytes)
        } ?? false
    }
}
