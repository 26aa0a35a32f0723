/// A keyed value is its key, then the value. Optionals get a presence byte, here too:
/// `encodeIfPresent` writes its key even for nil, so the layout is the same either way.
struct SnapshotKeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoding: SnapshotEncoding
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        encoding.key(key)
        encoding.out.byte(0)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { encoding.key(key); encoding.out.byte(value ? 1 : 0) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoding.key(key); encoding.out.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        encoding.key(key); encoding.out.fixed(value.bitPattern)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        encoding.key(key); encoding.out.fixed(value.bitPattern)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoding.key(key); encoding.integer(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        encoding.key(key)
        try encoding.encodeValue(value)
    }

    private func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        encoding.key(key)
        try encoding.encodeValue(value)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoding.key(key)
        return encoding.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoding.key(key)
        return encoding.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoding.out.varint(encoding.keys.id("super"))
        return encoding
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoding.key(key)
        return encoding
    }
}

/// A sequence the format does not know natively: a 4-byte count (filled in as elements
/// arrive), then the elements.
struct SnapshotUnkeyedWriter: UnkeyedEncodingContainer {
    let encoding: SnapshotEncoding
    let countOffset: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(encoding: SnapshotEncoding) {
        self.encoding = encoding
        countOffset = encoding.out.reserveCount()
    }

    private mutating func element() {
        count += 1
        encoding.out.bumpCount(at: countOffset)
    }

    mutating func encodeNil() throws {
        throw SnapshotFormatError.unsupported("a nil written by hand (optionals write their own presence byte)")
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        element()
        try encoding.encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        element()
        return encoding.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        element()
        return encoding.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        element()
        return encoding
    }
}

/// A single value is just the value.
struct SnapshotSingleWriter: SingleValueEncodingContainer {
    let encoding: SnapshotEncoding
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {
        throw SnapshotFormatError.unsupported("a nil written by hand (optionals write their own presence byte)")
    }

    mutating func encode(_ value: Bool) throws { encoding.out.byte(value ? 1 : 0) }
    mutating func encode(_ value: String) throws { encoding.out.string(value) }
    mutating func encode(_ value: Double) throws { encoding.out.fixed(value.bitPattern) }
    mutating func encode(_ value: Float) throws { encoding.out.fixed(value.bitPattern) }
    mutating func encode(_ value: Int) throws { encoding.integer(value) }
    mutating func encode(_ value: Int8) throws { encoding.integer(value) }
    mutating func encode(_ value: Int16) throws { encoding.integer(value) }
    mutating func encode(_ value: Int32) throws { encoding.integer(value) }
    mutating func encode(_ value: Int64) throws { encoding.integer(value) }
    mutating func encode(_ value: UInt) throws { encoding.integer(value) }
    mutating func encode(_ value: UInt8) throws { encoding.integer(value) }
    mutating func encode(_ value: UInt16) throws { encoding.integer(value) }
    mutating func encode(_ value: UInt32) throws { encoding.integer(value) }
    mutating func encode(_ value: UInt64) throws { encoding.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoding.encodeValue(value) }
}
