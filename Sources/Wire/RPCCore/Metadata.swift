/// Custom metadata of a call: ordered key-value pairs, keys in lower case, repeated keys
/// allowed. Keys ending in `-bin` carry bytes (base64 on the wire); the others carry
/// printable ASCII.
public struct Metadata: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case string(String)
        case binary([UInt8])
    }

    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: Value
    }

    public private(set) var entries: [Entry]

    public init() { entries = [] }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    /// Adds a text value. The key is lower-cased.
    public mutating func addString(_ value: String, forKey key: String) {
        entries.append(Entry(key: Self.normalized(key), value: .string(value)))
    }

    /// `key` in lower case; keys already in lower case (nearly all) are returned as they
    /// are, without building a new string.
    @inline(__always)
    static func normalized(_ key: String) -> String {
        var key = key
        let isLower = key.withUTF8 { bytes in
            !bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        }
        return isLower ? key : key.lowercased()
    }

    /// Adds a binary value. The key is lower-cased and must end in `-bin`.
    public mutating func addBinary(_ value: [UInt8], forKey key: String) {
        let key = Self.normalized(key)
        precondition(key.hasSuffix("-bin"), "binary metadata keys end in -bin: \(key)")
        entries.append(Entry(key: key, value: .binary(value)))
    }

    public mutating func add(_ value: Value, forKey key: String) {
        switch value {
        case .string(let s): addString(s, forKey: key)
        case .binary(let b): addBinary(b, forKey: key)
        }
    }

    /// For keys already known to be lower case (HTTP/2 requires it on the wire).
    mutating func appendLowercased(key: String, value: Value) {
        // Requests usually carry a few fields (user-agent, accept-encoding, ...): grow once.
        if entries.isEmpty { entries.reserveCapacity(4) }
        entries.append(Entry(key: key, value: value))
    }

    public mutating func removeAll(forKey key: String) {
        let key = Self.normalized(key)
        entries.removeAll { $0.key == key }
    }

    /// Every value stored under `key`, in order.
    public subscript(key: String) -> [Value] {
        if entries.isEmpty { return [] }
        let key = Self.normalized(key)
        return entries.compactMap { $0.key == key ? $0.value : nil }
    }

    /// The text values stored under `key`.
    public subscript(stringValues key: String) -> [String] {
        if entries.isEmpty { return [] }
        let key = Self.normalized(key)
        var values: [String] = []
        for i in entries.indices where entries[i].key == key {
            if case .string(let value) = entries[i].value { values.append(value) }
        }
        return values
    }

    /// The binary values stored under `key`.
    public subscript(binaryValues key: String) -> [[UInt8]] {
        if entries.isEmpty { return [] }
        let key = Self.normalized(key)
        var values: [[UInt8]] = []
        for i in entries.indices where entries[i].key == key {
            if case .binary(let value) = entries[i].value { values.append(value) }
        }
        return values
    }

    public mutating func append(contentsOf other: Metadata) {
        entries.append(contentsOf: other.entries)
    }
}

extension Metadata {
    /// Text entries, e.g. `Metadata(["x-user": "ada"])`.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.init()
        for (key, value) in pairs { addString(value, forKey: key) }
    }
}

extension Metadata: Sequence {
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }
}
