/// Writes an `Encodable` value in the snapshot format: compact, binary, exact and
/// canonical. Engine hosts use it to save an engine's state (`SnapshotState`).
///
/// The format, in the order a value's `encode(to:)` writes it, with no type tags:
/// - the byte string first holds a table of the coding keys used (each written once);
///   a keyed value is its key's index in the table, then the value. The reader checks every
///   key, so a state whose layout changed fails to read instead of reading garbage;
/// - integers are varints (signed: zigzag), `Double` and `Float` their bit patterns (NaN and
///   -0 survive: replay after a restore must be exact), strings and byte arrays
///   (`[UInt8]`, `ContiguousArray<UInt8>`, `Data`) a length and their bytes, a `UUID` 16 bytes;
/// - an optional is a presence byte (keyed optionals too, so layouts never depend on
///   which keys are absent), then the value;
/// - arrays are a count, then the elements; other sequences a 4-byte count;
/// - a dictionary or set is a count, then its entries sorted by their keys' (elements')
///   bytes: equal states give equal bytes, whatever order their hash tables are in.
package struct SnapshotEncoder: Sendable {
    package init() {}

    package func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoding = SnapshotEncoding()
        try encoding.encodeValue(value)
        var out = SnapshotWriter()
        out.varint(UInt64(encoding.keys.names.count))
        for name in encoding.keys.names { out.string(name) }
        out.bytes.append(contentsOf: encoding.out.bytes)
        return out.bytes
    }
}

/// The coding keys a snapshot uses, numbered in order of first use.
final class SnapshotKeyTable {
    var names: [String] = []
    private var ids: [String: UInt64] = [:]

    func id(_ name: String) -> UInt64 {
        if let id = ids[name] { return id }
        let id = UInt64(names.count)
        ids[name] = id
        names.append(name)
        return id
    }
}

/// One encoding in progress: every container writes into `out` in call order.
final class SnapshotEncoding: Encoder {
    var out = SnapshotWriter()
    let keys = SnapshotKeyTable()

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(SnapshotKeyedWriter<Key>(encoding: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        SnapshotUnkeyedWriter(encoding: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SnapshotSingleWriter(encoding: self)
    }

    func key(_ key: some CodingKey) {
        out.varint(keys.id(key.stringValue))
    }

    /// Writes `value`, natively when the format has a shape for its type.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let native = value as? any SnapshotNativeEncodable {
            try native.encodeSnapshot(into: self)
        } else {
            try value.encode(to: self)
        }
    }

    /// What `body` writes, apart from `out` (to sort a dictionary's entries by their keys).
    func detached(_ body: () throws -> Void) rethrows -> [UInt8] {
        let saved = out
        out = SnapshotWriter()
        defer { out = saved }
        try body()
        return out.bytes
    }

    func integer<T: BinaryInteger>(_ value: T) {
        if T.isSigned { out.signed(Int64(value)) } else { out.varint(UInt64(value)) }
    }
}
