internal import CProtobufC
// protobuf-c.h reaches this module twice, textually through CProtobufC's shim and through
// the generated headers of GlimpseProtoC, and the compiler attributes the members of its
// structs to GlimpseProtoC: MemberImportVisibility wants that import too.
internal import GlimpseProtoC

/// A bump allocator for one encode or decode.
///
/// Lowering a Swift value builds protobuf-c's C structs here, and `unpack` allocates its
/// output here through a `ProtobufCAllocator` whose `free` does nothing: everything goes
/// at once when the arena's scope ends. No per-field `malloc`/`free`, and nothing can
/// leak, even when `unpack` gives up half-way through a malformed input.
///
/// The first block lives on the stack (`withUnsafeTemporaryAllocation`) when it is small,
/// so a small message costs no heap allocation at all; larger needs chain heap blocks.
/// The arena is a pointer to its state, which sits at the start of that first block; it
/// must not escape the `with` call that made it.
package struct ProtoArena {
    @usableFromInline
    struct State {
        var cursor: UnsafeMutableRawPointer
        var remaining: Int
        /// Heap blocks, each starting with a pointer to the previous one.
        var heapBlocks: UnsafeMutableRawPointer?

        @inlinable
        init(cursor: UnsafeMutableRawPointer, remaining: Int) {
            self.cursor = cursor
            self.remaining = remaining
            heapBlocks = nil
        }
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    /// Room after the state for protobuf-c's `ProtobufCAllocator` (three pointers), which `allocator` sets
    /// up when a decode needs it: the C type stays out of the inlinable code.
    static let allocatorRoom = 24

    /// What protobuf-c's `unpack` allocates through: set up in the arena's header.
    var allocator: UnsafeMutablePointer<ProtobufCAllocator> {
        assert(MemoryLayout<ProtobufCAllocator>.size <= Self.allocatorRoom)
        let allocator = (UnsafeMutableRawPointer(state) + MemoryLayout<State>.stride)
            .bindMemory(to: ProtobufCAllocator.self, capacity: 1)
        allocator.initialize(
            to: ProtobufCAllocator(
                alloc: { data, size in
                    ProtoArena(state: data!.assumingMemoryBound(to: State.self)).allocate(byteCount: size)
                },
                free: { _, _ in },
                allocator_data: UnsafeMutableRawPointer(state)))
        return allocator
    }

    package static let header = (MemoryLayout<State>.stride + allocatorRoom + 15) & ~15
    /// Up to this size the standard library places a temporary allocation on the stack
    /// without asking the runtime how much stack is left (a slow question on Linux).
    package static let stackLimit = 1024

    /// Runs `body` with an arena whose first block holds about `capacity` bytes.
    @inlinable @inline(__always)
    package static func with<R, E: Error>(
        capacity: Int, _ body: (ProtoArena) throws(E) -> R
    ) throws(E) -> R {
        let size = min(header + max(capacity, 256), stackLimit * 64)
        if size <= stackLimit {
            return try withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { block throws(E) -> R in
                try run(block.baseAddress!, size, body)
            }
        }
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { block.deallocate() }
        return try run(block, size, body)
    }

    @inlinable @inline(__always)
    static func run<R, E: Error>(
        _ block: UnsafeMutableRawPointer, _ size: Int, _ body: (ProtoArena) throws(E) -> R
    ) throws(E) -> R {
        let state = block.bindMemory(to: State.self, capacity: 1)
        state.initialize(to: State(cursor: block + header, remaining: size - header))
        defer {
            var next = state.pointee.heapBlocks
            while let heapBlock = next {
                next = heapBlock.load(as: UnsafeMutableRawPointer?.self)
                heapBlock.deallocate()
            }
        }
        return try body(ProtoArena(state: state))
    }

    /// `byteCount` bytes aligned to 16, valid until the arena's scope ends.
    @inlinable @inline(__always)
    package func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let rounded = (byteCount &+ 15) & ~15
        if rounded > state.pointee.remaining { grow(rounded) }
        let p = state.pointee.cursor
        state.pointee.cursor = p + rounded
        state.pointee.remaining &-= rounded
        return p
    }

    @usableFromInline
    func grow(_ needed: Int) {
        let size = max(needed, 8192) + 16
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        block.storeBytes(of: state.pointee.heapBlocks, as: UnsafeMutableRawPointer?.self)
        state.pointee.heapBlocks = block
        state.pointee.cursor = block + 16
        state.pointee.remaining = size - 16
    }

    @inlinable @inline(__always)
    package func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: MemoryLayout<T>.stride &* count).bindMemory(to: T.self, capacity: count)
    }
}
