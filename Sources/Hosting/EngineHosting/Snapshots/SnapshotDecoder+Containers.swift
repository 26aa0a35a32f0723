/// Reads keyed values in the order they were written, checking each key. `allKeys` is the
/// next key alone: what a synthesized enum decoding asks for (dictionaries, which would
/// ask for more, are read natively).
struct SnapshotKeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoding: SnapshotDecoding
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        decoding.peekKey().flatMap { Key(stringValue: $0) }.map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool { decoding.peekKey() == key.stringValue }

    /// Nothing is written as a bare nil (optionals carry a presence byte), so never.
    func decodeNil(forKey key: Key) throws -> Bool { false }

    private func at(_ key: Key) throws -> SnapshotDecoding {
        try decoding.key(key.stringValue)
        return decoding
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try at(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try at(key).reader.string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try at(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try at(key).float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try at(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try at(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try at(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try at(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try at(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try at(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try at(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try at(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try at(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try at(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try at(key).decodeValue(type) }

    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try at(key).decodeValue(T?.self)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try at(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try at(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try decoding.key("super")
        return decoding
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try at(key) }
}

/// A sequence the format does not know natively: a 4-byte count, then the elements.
struct SnapshotUnkeyedReader: UnkeyedDecodingContainer {
    let decoding: SnapshotDecoding
    let total: Int
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { [] }

    init(decoding: SnapshotDecoding, count: Int) {
        self.decoding = decoding
        total = count
    }

    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    private mutating func next() throws -> SnapshotDecoding {
        guard currentIndex < total else {
            throw SnapshotFormatError.malformed(
                "more elements read than the \(total) written", at: decoding.reader.position)
        }
        currentIndex += 1
        return decoding
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SnapshotSingleReader: SingleValueDecodingContainer {
    let decoding: SnapshotDecoding
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try decoding.bool() }
    func decode(_ type: String.Type) throws -> String { try decoding.reader.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoding.double() }
    func decode(_ type: Float.Type) throws -> Float { try decoding.float() }
    func decode(_ type: Int.Type) throws -> Int { try decoding.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoding.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoding.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoding.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoding.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoding.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoding.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoding.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoding.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoding.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoding.decodeValue(type) }
}
