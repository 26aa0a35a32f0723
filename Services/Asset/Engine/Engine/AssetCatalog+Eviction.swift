import GlimpseVocabulary
extension AssetCatalog {
    /// Whether any name of the blob is pinned.
    func isPinned(blob hash: ContentHash) -> Bool {
        blobs[hash]?.names.contains { pinCounts[$0, default: 0] > 0 } ?? false
    }

    /// Free budget plus the bytes of every unpinned blob.
    package var evictableBytes: Int {
        limits.byteBudget - usedBytes + blobs.filter { !isPinned(blob: $0.key) }.reduce(0) { $0 + $1.value.size }
    }

    /// Evicts least recently used unpinned blobs until `size` more bytes fit. Decides
    /// first, then evicts, so a put that cannot fit changes nothing.
    mutating func makeRoom(
        for size: Int, keeping: ContentHash, alsoKeeping other: ContentHash? = nil
    ) -> Result<[ContentHash], AssetError> {
        var needed = usedBytes + size - limits.byteBudget
        guard needed > 0 else { return .success([]) }
        var victims: [ContentHash] = []
        for hash in lru.ordered where hash != keeping && hash != other && !isPinned(blob: hash) {
            victims.append(hash)
            needed -= blobs[hash]?.size ?? 0
            if needed <= 0 { break }
        }
        guard needed <= 0 else { return .failure(.budgetExhausted(needed: size, evictable: evictableBytes)) }
        for hash in victims { drop(hash) }
        return .success(victims)
    }

    /// Changes the budget, evicting (LRU, unpinned) down to it as far as pins allow.
    package mutating func setByteBudget(_ bytes: Int) -> [BlobEffect] {
        limits.byteBudget = bytes
        var evicted: [BlobEffect] = []
        for hash in lru.ordered where usedBytes > bytes && !isPinned(blob: hash) {
            drop(hash)
            evicted.append(.delete(hash))
        }
        return evicted
    }
}
