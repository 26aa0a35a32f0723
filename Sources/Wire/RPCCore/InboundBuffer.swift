/// The queue inside `InboundQueue` and `ServerStream`, without a lock or a waiter: the
/// elements a transport received for one consumer, and the flow-control bookkeeping.
///
/// Invariants:
/// - `bufferedBytes` is the sum of `bytes` over the entries still queued.
/// - An entry is *eager* (its bytes may be released to the peer at once) only while
///   `bufferedBytes` stays within the allowance it was pushed with; every other entry is
///   *owed*, and `take` reports its bytes so that they are released then.
/// - `first`, when set, comes before `entries[head...]`: a queue that holds one element at
///   a time (a unary request) never allocates the array.
/// - Once `end` is set, nothing more is appended.
@usableFromInline
struct InboundBuffer<Element: Sendable>: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var element: Element
        @usableFromInline var bytes: Int
        @usableFromInline var owed: Bool

        @inlinable init(element: Element, bytes: Int, owed: Bool) {
            self.element = element
            self.bytes = bytes
            self.owed = owed
        }
    }

    @usableFromInline
    enum End: Sendable { case finished, failed(RPCError) }

    /// An element with the bytes it stands for, and those of them that are owed.
    @usableFromInline
    enum Taken { case element(Element, bytes: Int, owedBytes: Int), end(End), empty }

    @usableFromInline var first: Entry?
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var head = 0
    @usableFromInline var bufferedBytes = 0
    @usableFromInline var end: End?

    @inlinable init() {}

    @inlinable var queuedCount: Int { (first == nil ? 0 : 1) + entries.count - head }

    /// Appends `element`; returns whether its bytes are owed (over `eagerAllowance`).
    @inlinable
    mutating func append(_ element: Element, bytes: Int, eagerAllowance: Int) -> Bool {
        bufferedBytes += bytes
        let owed = bufferedBytes > eagerAllowance
        let entry = Entry(element: element, bytes: bytes, owed: owed)
        if first == nil, head == entries.count {
            first = entry
        } else {
            entries.append(entry)
        }
        return owed
    }

    /// The oldest element, else the end, else `.empty`.
    @inlinable
    mutating func take() -> Taken {
        if let entry = first {
            first = nil
            bufferedBytes -= entry.bytes
            return .element(entry.element, bytes: entry.bytes, owedBytes: entry.owed ? entry.bytes : 0)
        }
        if head < entries.count {
            let entry = entries[head]
            head += 1
            bufferedBytes -= entry.bytes
            if head == entries.count {
                entries.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
            return .element(entry.element, bytes: entry.bytes, owedBytes: entry.owed ? entry.bytes : 0)
        }
        if let end { return .end(end) }
        return .empty
    }

    /// Without waiting: the only element of a stream that has already ended, or why not,
    /// with the bytes it stood for and those of them that were owed.
    @inlinable
    mutating func takeSingleIfComplete() -> (SingleOutcome<Element>, bytes: Int, owedBytes: Int) {
        guard case .finished = end else { return (.incomplete, 0, 0) }
        switch queuedCount {
        case 0: return (.none, 0, 0)
        case 1:
            guard case .element(let element, let bytes, let owed) = take() else { return (.none, 0, 0) }
            return (.one(element), bytes, owed)
        default: return (.tooMany, 0, 0)
        }
    }

    @inlinable
    static func deliver(_ end: End) throws -> Element? {
        switch end {
        case .finished: return nil
        case .failed(let error): throw error
        }
    }
}

/// What a single-request call finds without waiting (see `takeSingleIfComplete`).
public enum SingleOutcome<Element: Sendable>: Sendable {
    case one(Element), none, tooMany
    /// The end has not arrived yet: wait for the next element instead.
    case incomplete
}
