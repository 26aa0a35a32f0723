import GlimpseVocabulary
/// Keys in least-recently-used order with O(1) touch, insert and remove: a doubly
/// linked list threaded through a dictionary.
///
/// Invariant: `nodes` holds exactly the listed keys; following `next` from `head`
/// visits each once and ends at `tail`.
struct LRUList<Key: Hashable & Sendable>: Sendable {
    struct Node: Sendable {
        var previous: Key?
        var next: Key?
    }

    private var nodes: [Key: Node] = [:]
    private(set) var head: Key?  // least recently used
    private var tail: Key?  // most recently used

    var count: Int { nodes.count }

    func contains(_ key: Key) -> Bool { nodes[key] != nil }

    /// Makes `key` the most recently used, inserting it if new.
    mutating func touch(_ key: Key) {
        if nodes[key] != nil {
            guard tail != key else { return }
            remove(key)
        }
        nodes[key] = Node(previous: tail, next: nil)
        if let t = tail { nodes[t]?.next = key }
        tail = key
        if head == nil { head = key }
    }

    mutating func remove(_ key: Key) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        if let p = node.previous { nodes[p]?.next = node.next } else { head = node.next }
        if let n = node.next { nodes[n]?.previous = node.previous } else { tail = node.previous }
    }

    /// Oldest first.
    var ordered: [Key] {
        var out: [Key] = []
        var cursor = head
        while let k = cursor {
            out.append(k)
            cursor = nodes[k]?.next
        }
        return out
    }
}

/// Saved as it is: the links, head and tail (recency order is state eviction depends on).
extension LRUList: Codable where Key: Codable {}
extension LRUList.Node: Codable where Key: Codable {}
