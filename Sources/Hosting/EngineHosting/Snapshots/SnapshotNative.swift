#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Types the snapshot format writes in its own shape rather than through Codable's
/// containers: optionals (a presence byte), byte strings, arrays (a varint count), and
/// dictionaries and sets (sorted, so equal states give equal bytes).
protocol SnapshotNativeEncodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws
}

protocol SnapshotNativeDecodable {
    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self
}

extension Optional: SnapshotNativeEncodable where Wrapped: Encodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws {
        guard let self else { return encoding.out.byte(0) }
        encoding.out.byte(1)
        try encoding.encodeValue(self)
    }
}

extension Optional: SnapshotNativeDecodable where Wrapped: Decodable {
    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self {
        try decoding.present() ? try decoding.decodeValue(Wrapped.self) : nil
    }
}

extension Array: SnapshotNativeEncodable where Element: Encodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws { try encoding.encodeElements(self) }
}

extension Array: SnapshotNativeDecodable where Element: Decodable {
    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self {
        if Element.self == UInt8.self { return [UInt8](try decoding.reader.blob()) as! Self }
        return try decoding.elements(Element.self)
    }
}

extension ContiguousArray: SnapshotNativeEncodable where Element: Encodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws { try encoding.encodeElements(self) }
}

extension ContiguousArray: SnapshotNativeDecodable where Element: Decodable {
    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self {
        if Element.self == UInt8.self { return ContiguousArray<UInt8>(try decoding.reader.blob()) as! Self }
        return ContiguousArray(try decoding.elements(Element.self))
    }
}

extension SnapshotEncoding {
    /// A count and the elements; bytes as one length-prefixed run.
    func encodeElements<S: Collection>(_ elements: S) throws where S.Element: Encodable {
        // (Not `as? [UInt8]`: an empty array of anything casts to that.)
        if S.Element.self == UInt8.self,
            elements.withContiguousStorageIfAvailable({ out.blob(UnsafeRawBufferPointer($0)) }) != nil
        {
            return
        }
        out.varint(UInt64(elements.count))
        for element in elements { try encodeValue(element) }
    }
}

extension Data: SnapshotNativeEncodable, SnapshotNativeDecodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws {
        withUnsafeBytes { encoding.out.blob($0) }
    }

    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self {
        Data(try decoding.reader.blob())
    }
}

extension UUID: SnapshotNativeEncodable, SnapshotNativeDecodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws {
        withUnsafeBytes(of: uuid) { encoding.out.bytes.append(contentsOf: $0) }
    }

    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self {
        var raw = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        try withUnsafeMutableBytes(of: &raw) { target in
            for index in 0..<16 { target[index] = try decoding.reader.byte() }
        }
        return UUID(uuid: raw)
    }
}

extension Dictionary: SnapshotNativeEncodable where Key: Encodable, Value: Encodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws {
        // Sorting by the keys' bytes makes the bytes independent of the hash table's order.
        var entries: [(key: [UInt8], value: Value)] = []
        entries.reserveCapacity(count)
        for (key, value) in self { entries.append((try encoding.detached { try encoding.encodeValue(key) }, value)) }
        entries.sort { $0.key.lexicographicallyPrecedes($1.key) }
        encoding.out.varint(UInt64(count))
        for entry in entries {
            encoding.out.bytes.append(contentsOf: entry.key)
            try encoding.encodeValue(entry.value)
        }
    }
}

extension Dictionary: SnapshotNativeDecodable where Key: Decodable, Value: Decodable {
    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self {
        let count = try decoding.count()
        var dictionary = Self(minimumCapacity: count)
        for _ in 0..<count {
            let at = decoding.reader.position
            let key = try decoding.decodeValue(Key.self)
            guard dictionary.updateValue(try decoding.decodeValue(Value.self), forKey: key) == nil else {
                throw SnapshotFormatError.malformed("a dictionary key twice", at: at)
            }
        }
        return dictionary
    }
}

extension Set: SnapshotNativeEncodable where Element: Encodable {
    func encodeSnapshot(into encoding: SnapshotEncoding) throws {
        var elements = try map { element in try encoding.detached { try encoding.encodeValue(element) } }
        elements.sort { $0.lexicographicallyPrecedes($1) }
        encoding.out.varint(UInt64(count))
        for element in elements { encoding.out.bytes.append(contentsOf: element) }
    }
}

extension Set: SnapshotNativeDecodable where Element: Decodable {
    static func decodeSnapshot(from decoding: SnapshotDecoding) throws -> Self {
        let count = try decoding.count()
        var set = Self(minimumCapacity: count)
        for _ in 0..<count {
            let at = decoding.reader.position
            guard set.insert(try decoding.decodeValue(Element.self)).inserted else {
                throw SnapshotFormatError.malformed("a set element twice", at: at)
            }
        }
        return set
    }
}
