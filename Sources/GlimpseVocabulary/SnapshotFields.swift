/// A state whose snapshot is its fields, listed once: `snapshotFields` visits each stored
/// property replay would rebuild, in a fixed order, and that one list both saves
/// (`encodeFields`) and restores (`restoreFields`), so the two cannot drift apart.
///
/// A field kept in another shape than it is saved (a packed buffer, a generated message)
/// converts before the visit when saving and after it when restoring (`isRestoring`).
public protocol SnapshotFields {
    associatedtype FieldKey: CodingKey
    mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws
}

public protocol SnapshotFieldVisitor<Key> {
    associatedtype Key: CodingKey
    var isRestoring: Bool { get }
    /// Saves `value` under `key`, or replaces it with what was saved there.
    mutating func visit<T: Codable>(_ key: Key, _ value: inout T) throws
    /// The same for a field that is itself a `SnapshotFields` (it keeps what a start gives it).
    mutating func visitNested<T: SnapshotFields>(_ key: Key, _ value: inout T) throws
}

extension SnapshotFields {
    public func encodeFields(to encoder: any Encoder) throws {
        var visitor = FieldSaver(container: encoder.container(keyedBy: FieldKey.self))
        // Saving reads the fields through `inout` but changes nothing.
        var copy = self
        try copy.snapshotFields(&visitor)
    }

    public mutating func restoreFields(from decoder: any Decoder) throws {
        var visitor = FieldRestorer(container: try decoder.container(keyedBy: FieldKey.self))
        try snapshotFields(&visitor)
    }
}

struct FieldSaver<Key: CodingKey>: SnapshotFieldVisitor {
    var container: KeyedEncodingContainer<Key>
    var isRestoring: Bool { false }

    mutating func visit<T: Codable>(_ key: Key, _ value: inout T) throws {
        try container.encode(value, forKey: key)
    }

    mutating func visitNested<T: SnapshotFields>(_ key: Key, _ value: inout T) throws {
        try value.encodeFields(to: container.superEncoder(forKey: key))
    }
}

struct FieldRestorer<Key: CodingKey>: SnapshotFieldVisitor {
    let container: KeyedDecodingContainer<Key>
    var isRestoring: Bool { true }

    mutating func visit<T: Codable>(_ key: Key, _ value: inout T) throws {
        value = try container.decode(T.self, forKey: key)
    }

    mutating func visitNested<T: SnapshotFields>(_ key: Key, _ value: inout T) throws {
        try value.restoreFields(from: container.superDecoder(forKey: key))
    }
}
