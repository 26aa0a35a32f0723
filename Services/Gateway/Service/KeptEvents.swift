import GlimpseMessages

/// The events the log keeps, oldest first, numbered by consecutive sequences: each one as
/// its protobuf bytes, packed into shared chunks, without its kind and bundle id, which are
/// kept beside it (interned) so that a filter reads no bytes. An event takes its encoded
/// size and a 20-byte slot (about 175 bytes for an entry change, with its view) instead of
/// the generated message's tree of boxes and strings, and the oldest chunks go back to the
/// allocator as the log drops events from the front. Events are encoded before the log's
/// lock is taken, and read back after it is let go.
///
/// Invariants: `slots[start...]` are the kept events, `slots[start]` has sequence
/// `firstSequence`, each later one the next; every slot's bytes lie in a chunk still held
/// (`chunks[0]` is chunk number `droppedChunks`); chunks fill in order, so the chunks before
/// the oldest kept event's hold only dropped events and are let go.
struct KeptEvents {
    private struct Slot {
        var chunk: UInt32
        var offset: UInt32
        var length: UInt32
        var kind: UInt16
        var bundle: UInt32
    }

    /// How many bytes a chunk holds (a larger event gets a chunk of its own).
    static let chunkSize = 256 << 10

    private var slots: ContiguousArray<Slot> = []
    /// Index in `slots` of the oldest kept event (the ones before it wait for compaction).
    private var start = 0
    private var chunks: [[UInt8]] = []
    private var droppedChunks: UInt32 = 0
    /// The capacity of the chunks held.
    private var chunkBytes = 0
    private var kinds: [String] = []
    private var kindIndex: [String: UInt16] = [:]
    private var bundles: [String] = []
    private var bundleIndex: [String: UInt32] = [:]
    /// Events whose bytes could not be written (none expected: the services' limits keep an
    /// event within what the encoder takes), kept as they came.
    private var unencoded: [UInt64: GlimpseGatewayV1.Event] = [:]
    /// The sequence of the oldest kept event (of the next one, while none is kept).
    private(set) var firstSequence: UInt64 = 1

    var count: Int { slots.count - start }
    var isEmpty: Bool { count == 0 }

    /// The sequence of the event at `index` (0 is the oldest kept).
    func sequence(at index: Int) -> UInt64 { firstSequence + UInt64(index) }

    /// An event made ready for the log before it has a sequence: its bytes without one (a
    /// sequence is a field the log adds when it commits it), and what a filter reads.
    struct Prepared: Sendable {
        fileprivate enum Form: Sendable {
            case bytes([UInt8])
            case event(GlimpseGatewayV1.Event)
        }
        let kind: String
        let bundleID: String
        fileprivate let form: Form

        /// Encodes `event` (made outside the log's lock). Its kind and bundle id are kept
        /// once per log (interned), so its bytes leave them out; reading it back puts them in.
        init(_ event: GlimpseGatewayV1.Event) {
            kind = event.kind
            bundleID = event.bundleId
            var bare = event
            bare.sequence = 0  // the defaults: no field in the bytes
            bare.kind = ""
            bare.bundleId = ""
            do { form = .bytes(try bare.serializedBytes()) } catch { form = .event(event) }
        }
    }

    /// Keeps `event` as number `sequence`, which must be the one after the newest kept.
    mutating func append(_ event: Prepared, sequence: UInt64) {
        if isEmpty { firstSequence = sequence }
        precondition(sequence == firstSequence + UInt64(count), "events are kept in sequence order")
        var bytes: [UInt8] = []
        switch event.form {
        case .bytes(let encoded):
            bytes = encoded
            // Field 1 (`sequence`, a varint): protobuf reads fields in any order.
            bytes.append(0x08)
            var value = sequence
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        case .event(var kept):
            kept.sequence = sequence
            unencoded[sequence] = kept
        }
        if chunks.isEmpty || chunks[chunks.count - 1].count + bytes.count > Self.chunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkSize, bytes.count))
            chunkBytes += chunk.capacity
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        let offset = chunks[last].count
        chunks[last].append(contentsOf: bytes)
        slots.append(
            Slot(
                chunk: droppedChunks + UInt32(last), offset: UInt32(offset), length: UInt32(bytes.count),
                kind: Self.intern(event.kind, &kinds, &kindIndex),
                bundle: Self.intern(event.bundleID, &bundles, &bundleIndex)
            ))
    }

    /// Drops the oldest kept event.
    mutating func removeFirst() {
        guard !isEmpty else { return }
        unencoded[firstSequence] = nil
        start += 1
        firstSequence += 1
        // Chunks that only dropped events used go back, all but the one being filled.
        let oldestNeeded = isEmpty ? droppedChunks + UInt32(chunks.count - 1) : slots[start].chunk
        let done = Int(oldestNeeded - droppedChunks)
        if done > 0 {
            chunkBytes -= chunks[..<done].reduce(0) { $0 + $1.capacity }
            chunks.removeFirst(done)
            droppedChunks += UInt32(done)
        }
        if start > 4096, start * 2 > slots.count {
            slots.removeFirst(start)
            start = 0
        }
    }

    /// A kept event as copied out under the log's lock, to be read back outside it.
    struct Copied: Sendable {
        fileprivate enum Form: Sendable {
            case bytes([UInt8], kind: String, bundleID: String)
            case event(GlimpseGatewayV1.Event)
        }
        let sequence: UInt64
        fileprivate let form: Form

        /// The event, read back from its bytes.
        var event: GlimpseGatewayV1.Event {
            switch form {
            case .event(let event): return event
            case .bytes(let bytes, let kind, let bundleID):
                do {
                    var event = try GlimpseGatewayV1.Event(serializedBytes: bytes)
                    event.kind = kind
                    event.bundleId = bundleID
                    return event
                } catch {
                    // Bytes this log wrote read back; should they not, the event still shows where it was.
                    var event = GlimpseGatewayV1.Event()
                    event.sequence = sequence
                    event.kind = kind
                    event.bundleId = bundleID
                    event.summary = "(this event's bytes could not be read back: \(error))"
                    return event
                }
            }
        }
    }

    /// The event at `index` (0 is the oldest kept): its bytes, copied.
    func copy(at index: Int) -> Copied {
        let sequence = sequence(at: index)
        if let kept = unencoded[sequence] { return Copied(sequence: sequence, form: .event(kept)) }
        let slot = slots[start + index]
        let chunk = chunks[Int(slot.chunk - droppedChunks)]
        let bytes = Array(chunk[Int(slot.offset)..<Int(slot.offset) + Int(slot.length)])
        return Copied(
            sequence: sequence, form: .bytes(bytes, kind: kinds[Int(slot.kind)], bundleID: bundles[Int(slot.bundle)]))
    }

    /// Whether the event at `index` passes `filter` (reads no bytes).
    func matches(_ filter: EventLog.Filter, at index: Int) -> Bool {
        let slot = slots[start + index]
        return filter.matches(kind: kinds[Int(slot.kind)], bundleID: bundles[Int(slot.bundle)])
    }

    /// The bytes held: the chunks (their capacity) and the slots (events that could not be
    /// encoded are not counted; none is expected).
    var heldBytes: Int { chunkBytes + slots.capacity * MemoryLayout<Slot>.stride }

    private static func intern<Index: FixedWidthInteger>(
        _ text: String, _ names: inout [String], _ index: inout [String: Index]
    ) -> Index {
        if let known = index[text] { return known }
        let next = Index(truncatingIfNeeded: names.count)
        names.append(text)
        index[text] = next
        return next
    }
}
