import GlimpseVocabulary
extension AssetCatalog {
    /// Sets the names `holder` references (a widget's current entry, a live activity),
    /// replacing what it held before. Pinned names' blobs are never evicted.
    package mutating func pin(_ names: Set<AssetName>, holder: HolderID) {
        let before = pins[holder] ?? []
        for name in before.subtracting(names) { decrement(name) }
        for name in names.subtracting(before) { pinCounts[name, default: 0] += 1 }
        pins[holder] = names.isEmpty ? nil : names
    }

    /// Releases everything `holder` pinned (the entry was replaced, the activity dismissed).
    package mutating func unpin(holder: HolderID) { pin([], holder: holder) }

    package func isPinned(_ name: AssetName) -> Bool { pinCounts[name, default: 0] > 0 }

    /// The names `holder` pins now (empty when it pins nothing).
    package func names(pinnedBy holder: HolderID) -> Set<AssetName> { pins[holder] ?? [] }

    private mutating func decrement(_ name: AssetName) {
        let n = pinCounts[name, default: 0] - 1
        pinCounts[name] = n > 0 ? n : nil
    }

    /// For the names upcoming entries reference: which to fetch (unknown or evicted),
    /// and which are present — those are marked most recently used so the fetches do
    /// not evict them.
    package mutating func prefetchHint(for names: [AssetName]) -> PrefetchHint {
        var hint = PrefetchHint(unknown: [], evicted: [], present: [])
        var seen = Set<AssetName>()
        for name in names where seen.insert(name).inserted {
            switch lookup(name) {
            case .unknown: hint.unknown.append(name)
            case .evicted: hint.evicted.append(name)
            case .present(let m):
                lru.touch(m.hash)
                hint.present.append(name)
            }
        }
        return hint
    }
}
