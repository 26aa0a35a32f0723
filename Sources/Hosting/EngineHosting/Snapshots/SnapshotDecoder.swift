/// Reads what `SnapshotEncoder` wrote. Reading checks every key against the one written and
/// that nothing is left over, so a layout that changed since the bytes were written throws
/// (`SnapshotFormatError`) instead of yielding a state that is subtly wrong.
package struct SnapshotDecoder: Sendable {
    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        var value: T?
        try reading(bytes) { decoding in value = try decoding.decodeValue(T.self) }
        return value!
    }

    /// Hands `body` a decoder over `bytes` (to restore into an existing value), then checks
    /// that `body` read all of them.
    package func read(_ bytes: [UInt8], _ body: (any Decoder) throws -> Void) throws {
        try reading(bytes) { decoding in try body(decoding) }
    }

    func reading(_ bytes: [UInt8], _ body: (SnapshotDecoding) throws -> Void) throws {
        var reader = SnapshotReader(bytes)
        let count = try reader.length()
        var keys: [String] = []
        keys.reserveCapacity(count)
        for _ in 0..<count { keys.append(try reader.string()) }
        let decoding = SnapshotDecoding(reader: reader, keys: keys)
        try body(decoding)
        guard decoding.reader.isAtEnd else {
            throw SnapshotFormatError.malformed(
                "\(bytes.count - decoding.reader.position) bytes nothing read", at: decoding.reader.position)
        }
    }
}

/// One decoding in progress: every container reads from `reader` in call order.
final class SnapshotDecoding: Decoder {
    var reader: SnapshotReader
    let keys: [String]

    init(reader: SnapshotReader, keys: [String]) {
        self.reader = reader
        self.keys = keys
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(SnapshotKeyedReader<Key>(decoding: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        SnapshotUnkeyedReader(decoding: self, count: Int(try reader.fixed(UInt32.self)))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SnapshotSingleReader(decoding: self)
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let native = T.self as? any SnapshotNativeDecodable.Type {
            return try native.decodeSnapshot(from: self) as! T
        }
        return try T(from: self)
    }

    /// An optional's presence byte.
    func present() throws -> Bool {
        switch try reader.byte() {
        case 0: return false
        case 1: return true
        default: throw SnapshotFormatError.malformed("a presence byte that is neither 0 nor 1", at: reader.position - 1)
        }
    }

    func bool() throws -> Bool { try present() }

    /// An element count (it never reserves more than the bytes left could hold).
    func count() throws -> Int {
        let count = try reader.varint()
        guard count <= UInt64(Int.max) else {
            throw SnapshotFormatError.malformed("a count of \(count)", at: reader.position)
        }
        return Int(count)
    }

    func elements<T: Decodable>(_ type: T.Type) throws -> [T] {
        let count = try count()
        var elements: [T] = []
        elements.reserveCapacity(min(count, reader.bytes.count - reader.position))
        for _ in 0..<count { elements.append(try decodeValue(T.self)) }
        return elements
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let at = reader.position
        let value: T?
        if T.isSigned { value = T(exactly: try reader.signed()) } else { value = T(exactly: try reader.varint()) }
        guard let value else { throw SnapshotFormatError.malformed("an integer out of range for \(T.self)", at: at) }
        return value
    }

    func double() throws -> Double { Double(bitPattern: try reader.fixed(UInt64.self)) }
    func float() throws -> Float { Float(bitPattern: try reader.fixed(UInt32.self)) }

    /// The key the next value was written under, without consuming it.
    func peekKey() -> String? {
        var ahead = reader
        guard let id = try? ahead.varint(), id < UInt64(keys.count) else { return nil }
        return keys[Int(id)]
    }

    /// Consumes the next key and checks it is `expected`.
    func key(_ expected: String) throws {
        let at = reader.position
        let id = try reader.varint()
        guard id < UInt64(keys.count) else {
            throw SnapshotFormatError.malformed("key #\(id) of \(keys.count)", at: at)
        }
        guard keys[Int(id)] == expected else {
            throw SnapshotFormatError.keyMismatch(expected: expected, found: keys[Int(id)], at: at)
        }
    }
}
