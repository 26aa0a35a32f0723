/// A state whose snapshot is its fields, listed once: `snapshotFields` visits each stored
/// property replay would rebuild, in a fixed order, and that one list both saves
/// (`encodeFields`) and restores (`restoreFields`), so the two cannot drift apart.
///
package protocol SnapshotFields {
    associatedtype FieldKey: CodingKey
    mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws
}

package protocol SnapshotFieldVisitor<Key> {
    associatedtype Key: CodingKey
    var isRestoring: Bool { get }
    mutating func save<T: Encodable>(_ key: Key, _ value: T) throws
    mutating func restored<T: Decodable>(_ key: Key, as type: T.Type) throws -> T
    /// Whether the snapshot being restored has `key` (a saver: always).
    func has(_ key: Key) -> Bool
    /// Saves or restores a field that is itself a `SnapshotFields` (it keeps what a start gives it).
    mutating func visitNested<T: SnapshotFields>(_ key: Key, _ value: inout T) throws
}

extension SnapshotFieldVisitor {
    /// Saves `value` under `key`, or replaces it with what was saved there.
    package mutating func visit<T: Codable>(_ key: Key, _ value: inout T) throws {
        if isRestoring { value = try restored(key, as: T.self) } else { try save(key, value) }
    }

    /// A field added after stores were written: restoring a snapshot saved without it
    /// keeps `value` as the start made it.
    package mutating func visitAdded<T: Codable>(_ key: Key, _ value: inout T) throws {
        if isRestoring {
            if has(key) { value = try restored(key, as: T.self) }
        } else {
            try save(key, value)
        }
    }

    /// The same for a field kept in another shape than it is saved in (packed memory,
    /// generated messages): `saving` gives the saved shape, `restoring` takes it back.
    package mutating func visit<Kept, Saved: Codable>(
        _ key: Key, _ value: inout Kept, saving: (Kept) throws -> Saved, restoring: (Saved) throws -> Kept
    ) throws {
        if isRestoring {
            value = try restoring(try restored(key, as: Saved.self))
        } else {
            try save(key, try saving(value))
        }
    }
}

extension SnapshotFields {
    package func encodeFields(to encoder: any Encoder) throws {
        var visitor = FieldSaver(container: encoder.container(keyedBy: FieldKey.self))
        // Saving reads the fields through `inout` but changes nothing.
        var copy = self
        try copy.snapshotFields(&visitor)
    }

    package mutating func restoreFields(from decoder: any Decoder) throws {
        var visitor = FieldRestorer(container: try decoder.container(keyedBy: FieldKey.self))
        try snapshotFields(&visitor)
    }
}

struct FieldSaver<Key: CodingKey>: SnapshotFieldVisitor {
    var container: KeyedEncodingContainer<Key>
    var isRestoring: Bool { false }

    mutating func save<T: Encodable>(_ key: Key, _ value: T) throws {
        try container.encode(value, forKey: key)
    }

    func restored<T: Decodable>(_ key: Key, as type: T.Type) throws -> T {
        preconditionFailure("a saver restores nothing")
    }

    func has(_ key: Key) -> Bool { true }

    mutating func visitNested<T: SnapshotFields>(_ key: Key, _ value: inout T) throws {
        try value.encodeFields(to: container.superEncoder(forKey: key))
    }
}

struct FieldRestorer<Key: CodingKey>: SnapshotFieldVisitor {
    let container: KeyedDecodingContainer<Key>
    var isRestoring: Bool { true }

    func save<T: Encodable>(_ key: Key, _ value: T) throws {
        preconditionFailure("a restorer saves nothing")
    }

    func restored<T: Decodable>(_ key: Key, as type: T.Type) throws -> T {
        try container.decode(T.self, forKey: key)
    }

    func has(_ key: Key) -> Bool { container.contains(key) }

    mutating func visitNested<T: SnapshotFields>(_ key: Key, _ value: inout T) throws {
        try value.restoreFields(from: container.superDecoder(forKey: key))
    }
}
