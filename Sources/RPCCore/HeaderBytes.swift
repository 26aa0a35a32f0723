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
    @exclusivity(unchecked) private var strings: [String] = []
    @exclusivity(unchecked) private var next = 0
    private let capacity: Int

    public init(capacity: Int = 16) {
        self.capacity = capacity
        strings.reserveCapacity(capacity)
    }

    public func string(for bytes: UnsafeRawBufferPointer) -> String {
        for candidate in strings where Self.matches(candidate, bytes) { return candidate }
        let made = String(decoding: bytes, as: UTF8.self)
        if strings.count < capacity {
            strings.append(made)
        } else {
            strings[next] = made
            next = (next + 1) % capacity
        }
        return made
    }

    private static func matches(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard string.utf8.count == bytes.count else { return false }
        return string.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.elementsEqual(bytes)
        } ?? false
    }
}
