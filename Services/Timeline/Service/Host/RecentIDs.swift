import DequeModule

/// The last `capacity` request ids seen, to apply a retried request once. An empty id is
/// never remembered: a caller that does not retry sends none.
struct RecentIDs: Sendable, Hashable, Codable {
    let capacity: Int
    private var ids: Set<String> = []
    private var order: Deque<String> = []

    init(capacity: Int) { self.capacity = capacity }

    func contains(_ id: String) -> Bool { !id.isEmpty && ids.contains(id) }

    /// Remembers `id`, forgetting the oldest past `capacity`.
    mutating func insert(_ id: String) {
        guard !id.isEmpty, ids.insert(id).inserted else { return }
        order.append(id)
        if order.count > capacity, let oldest = order.popFirst() { ids.remove(oldest) }
    }
}
