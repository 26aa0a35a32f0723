import DequeModule
package import GlimpseVocabulary

/// The App Group store: a versioned key-value store per group, I/O-free. Providers watch
/// it through a change feed (`changes(in:since:)`); intents write it declaratively.
///
/// Invariants:
/// - Each group has a sequence number that every write (set, remove) advances by one;
///   the version of a key is the sequence of its last write, so versions only grow.
/// - `compareAndSet` writes only when the key's version is the one expected (nil: absent).
/// - A group's change log holds its last `changeLogLimit` changes in sequence order; a
///   reader further behind is told to resync from a snapshot.
/// - `apply` (a declarative action) is atomic: every operation or none.
package struct AppGroupStore: Sendable {
    package struct Entry: Sendable, Hashable, Codable {
        package var value: TypedValue
        package var version: UInt64
    }

    struct Group: Codable {
        var entries: [String: Entry] = [:]
        var sequence: UInt64 = 0
        var log = Deque<StoreChange>()
    }

    package let changeLogLimit: Int
    var groups: [GroupID: Group] = [:]

    package init(changeLogLimit: Int = IntentSettings.defaults.changeLogLimit) {
        self.changeLogLimit = max(1, changeLogLimit)
    }

    // MARK: Reading

    package func value(_ key: String, in group: GroupID) -> TypedValue? { groups[group]?.entries[key]?.value }

    package func entry(_ key: String, in group: GroupID) -> Entry? { groups[group]?.entries[key] }

    /// Every key of the group with its value and version.
    package func snapshot(of group: GroupID) -> [String: Entry] { groups[group]?.entries ?? [:] }

    /// The group's sequence number: the number of writes so far.
    package func sequence(of group: GroupID) -> UInt64 { groups[group]?.sequence ?? 0 }

    /// The changes after `sequence`, or `.resync` when the log no longer reaches back that far.
    package func changes(in group: GroupID, since sequence: UInt64) -> ChangeFeed {
        guard let state = groups[group] else { return sequence == 0 ? .changes([], latest: 0) : .resync(latest: 0) }
        guard sequence <= state.sequence else { return .resync(latest: state.sequence) }
        let oldest = state.log.first?.sequence ?? state.sequence + 1
        guard sequence + 1 >= oldest else { return .resync(latest: state.sequence) }
        return .changes(Array(state.log.drop { $0.sequence <= sequence }), latest: state.sequence)
    }

    // MARK: Writing

    /// Sets a key; returns its new version.
    @discardableResult
    package mutating func set(_ key: String, to value: TypedValue, in group: GroupID) -> UInt64 {
        write(key, value, in: group)
    }

    /// Removes a key; returns the new group sequence, or nil when the key was absent.
    @discardableResult
    package mutating func remove(_ key: String, in group: GroupID) -> UInt64? {
        guard groups[group]?.entries[key] != nil else { return nil }
        return write(key, nil, in: group)
    }

    /// Writes `value` (nil: removes) only if the key's version is `expected` (nil: the key
    /// must be absent). Returns the new version (or sequence, for a removal).
    @discardableResult
    package mutating func compareAndSet(
        _ key: String, in group: GroupID, expected: UInt64?, to value: TypedValue?
    ) throws(StoreError) -> UInt64 {
        let actual = groups[group]?.entries[key]?.version
        guard actual == expected else { throw .versionMismatch(key: key, expected: expected, actual: actual) }
        return write(key, value, in: group)
    }

    mutating func write(_ key: String, _ value: TypedValue?, in group: GroupID) -> UInt64 {
        var state = groups.removeValue(forKey: group) ?? Group()
        state.sequence += 1
        state.entries[key] = value.map { Entry(value: $0, version: state.sequence) }
        state.log.append(StoreChange(sequence: state.sequence, key: key, value: value))
        if state.log.count > changeLogLimit { state.log.removeFirst(state.log.count - changeLogLimit) }
        groups[group] = state
        return state.sequence
    }
}

/// One write to a group: the key's new value, or nil when it was removed.
package struct StoreChange: Sendable, Hashable, Codable {
    package var sequence: UInt64
    package var key: String
    package var value: TypedValue?
}

/// What `changes(in:since:)` returns.
package enum ChangeFeed: Sendable, Hashable {
    /// Every change after the reader's sequence, oldest first; `latest` is where to resume.
    case changes([StoreChange], latest: UInt64)
    /// The log no longer reaches back to the reader: read a snapshot, resume from `latest`.
    case resync(latest: UInt64)
}

/// Why a store write was refused.
package enum StoreError: Error, Sendable, Hashable, Codable {
    case versionMismatch(key: String, expected: UInt64?, actual: UInt64?)
    case typeMismatch(key: String, expected: ValueType, found: ValueType)
    /// An increment past Int64's range; nothing is written.
    case overflow(key: String, value: Int64, increment: Int64)
}
