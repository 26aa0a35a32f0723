internal import CProtobufC
// See ProtoArena.swift: the members of protobuf-c's structs are attributed to GlimpseProtoC.
internal import GlimpseProtoC

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the generated glue provides for each message: the copies between the Swift value
/// and its protobuf-c C struct. Package-internal, and without C types: the glue of each
/// module binds the raw pointers to its own C structs, so no C type leaves the module
/// that imports it. The entry points below are inlinable so that each message type gets
/// its own specialized encode and decode, without generic metadata lookups on every call.
package protocol _ProtoCBacked: GlimpseMessage {
    /// Whether the schema lets this message nest without bound (a depth check guards
    /// `unpack`, which recurses in C).
    static var _isRecursive: Bool { get }
    /// A new C struct in `arena`, initialised by protobuf-c's `__init`.
    static func _cMake(in arena: ProtoArena) -> UnsafeMutableRawPointer
    static var _descriptor: _ProtoDescriptor { get }
    /// Lifts the value from its C struct at `c`.
    init(_c c: UnsafeRawPointer, depth: Int) throws(ProtoDecodingError)
    /// Lowers the value into its C struct at `c` (made by `_cMake`).
    func _lower(into c: UnsafeMutableRawPointer, arena: ProtoArena, depth: Int) throws(ProtoEncodingError)
}

/// The two entry points every generated `serializedBytes()` / `init(serializedBytes:)` calls.
package enum _ProtoWire {
    @inlinable
    package static func encode<M: _ProtoCBacked>(_ message: M) throws(ProtoEncodingError) -> [UInt8] {
        var out: [UInt8] = []
        try append(message, to: &out)
        return out
    }

    /// Appends the encoding to `buffer`; no allocation when its capacity suffices.
    @inlinable
    package static func append<M: _ProtoCBacked>(_ message: M, to buffer: inout [UInt8]) throws(ProtoEncodingError) {
        try ProtoArena.with(capacity: ProtoArena.stackLimit - ProtoArena.header) { arena throws(ProtoEncodingError) in
            pack(try arena.lower(message, depth: -1), appendingTo: &buffer)
        }
    }

    /// Appends protobuf-c's packing of the C message at `c`.
    @usableFromInline
    static func pack(_ c: UnsafeMutableRawPointer, appendingTo buffer: inout [UInt8]) {
        let base = UnsafeRawPointer(c).assumingMemoryBound(to: ProtobufCMessage.self)
        let size = protobuf_c_message_get_packed_size(base)
        guard size > 0 else { return }
        // Packed into scratch space (the stack, for small messages) and appended as one block:
        // appending `size` zeros to pack over went element by element where the stdlib is not
        // specialized (debug builds), about a second per hundred 1 MiB messages.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { scratch in
            _ = protobuf_c_message_pack(base, scratch.baseAddress!)
            buffer.append(contentsOf: UnsafeBufferPointer(scratch))
        }
    }

    /// protobuf-c's unpacking of `bytes` (not empty) into `arena`; nil if it refused them.
    @usableFromInline
    static func unpack(
        _ descriptor: _ProtoDescriptor, _ bytes: UnsafeRawBufferPointer, into arena: ProtoArena
    ) -> UnsafeRawPointer? {
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return protobuf_c_message_unpack(descriptor.message, arena.allocator, bytes.count, base).map(
            UnsafeRawPointer.init)
    }

    @inlinable
    package static func decode<M: _ProtoCBacked>(
        _ type: M.Type, from bytes: UnsafeRawBufferPointer
    ) throws(ProtoDecodingError) -> M {
        guard bytes.baseAddress != nil, bytes.count > 0 else {
            return M()
        }
        if M._isRecursive {
            try _ProtoDepthGuard.check(bytes, rootDescriptor: M._descriptor, message: M.protoMessageName)
        }
        // unpack needs about the C structs plus a copy of every string: 3x the input is
        // a generous first block; more comes from the heap if needed.
        return try ProtoArena.with(capacity: bytes.count &* 3 &+ 256) { arena throws(ProtoDecodingError) -> M in
            guard let message = unpack(M._descriptor, bytes, into: arena) else {
                throw .malformed(message: M.protoMessageName)
            }
            return try M(_c: message, depth: 0)
        }
    }
}

/// protobuf-c's descriptor of one message type. The C global is not addressable from
/// Swift without copying it, so it is read once from an initialised struct.
package struct _ProtoDescriptor: @unchecked Sendable {  // points at an immutable C global
    /// The `ProtobufCMessageDescriptor`.
    package let pointer: UnsafeRawPointer

    package init<C>(_ initialize: (UnsafeMutablePointer<C>) -> Void) {
        let scratch = UnsafeMutablePointer<C>.allocate(capacity: 1)
        defer { scratch.deallocate() }
        initialize(scratch)
        pointer = UnsafeRawPointer(
            UnsafeRawPointer(scratch).assumingMemoryBound(to: ProtobufCMessage.self).pointee.descriptor)
    }

    var message: UnsafePointer<ProtobufCMessageDescriptor> {
        pointer.assumingMemoryBound(to: ProtobufCMessageDescriptor.self)
    }
}

extension ProtoArena {
    /// Builds the C struct of `message` in the arena.
    @inline(__always)
    package func lower<M: _ProtoCBacked>(_ message: M, depth: Int) throws(ProtoEncodingError) -> UnsafeMutableRawPointer
    {
        guard depth &+ 1 < _protoMaxDepth else { throw .tooDeep(message: M.protoMessageName) }
        let c = M._cMake(in: self)
        try message._lower(into: c, arena: self, depth: depth &+ 1)
        return c
    }

    /// `lower`, typed as the field that holds it (`C` is the glue's C struct of `M`).
    @inline(__always)
    package func lower<M: _ProtoCBacked, C>(
        _ message: M, depth: Int
    ) throws(ProtoEncodingError) -> UnsafeMutablePointer<C> {
        try lower(message, depth: depth).assumingMemoryBound(to: C.self)
    }

    package func lowerMessages<M: _ProtoCBacked, C>(
        _ messages: [M], depth: Int
    ) throws(ProtoEncodingError) -> UnsafeMutablePointer<UnsafeMutablePointer<C>?> {
        let list = allocate(UnsafeMutablePointer<C>?.self, count: messages.count)
        for i in messages.indices { list[i] = try lower(messages[i], depth: depth) }
        return list
    }

    /// A copy of `string`'s UTF-8 (the glue makes protobuf-c's `ProtobufCBinaryData` of it,
    /// with `utf8.count`: protoc-gen-c-compat gives protobuf-c every string as bytes).
    /// Refuses strings that contain U+0000, which the decoding side refuses too.
    @inline(__always)
    package func lowerString(
        _ string: String, _ message: StaticString, _ field: StaticString
    ) throws(ProtoEncodingError) -> UnsafeMutablePointer<UInt8> {
        var string = string
        let copy: UnsafeMutablePointer<UInt8>? = string.withUTF8 { utf8 in
            let count = utf8.count
            if count > 0, _containsNUL(utf8.baseAddress!, count) { return nil }
            let p = allocate(UInt8.self, count: count)
            if count > 0 { p.update(from: utf8.baseAddress!, count: count) }
            return p
        }
        guard let copy else { throw .stringContainsNUL(message: "\(message)", field: "\(field)") }
        return copy
    }

    /// A copy of `bytes` (the glue makes protobuf-c's `ProtobufCBinaryData` of it).
    @inline(__always)
    package func lowerBytes(_ bytes: [UInt8]) -> UnsafeMutablePointer<UInt8> {
        let p = allocate(UInt8.self, count: bytes.count)
        bytes.withUnsafeBufferPointer { src in
            if let base = src.baseAddress { p.update(from: base, count: src.count) }
        }
        return p
    }

    @inline(__always)
    package func lowerScalars<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
        let p = allocate(T.self, count: values.count)
        values.withUnsafeBufferPointer { src in p.initialize(from: src.baseAddress!, count: src.count) }
        return p
    }
}

/// The text of a `string` field, from the bytes protobuf-c kept (`ProtobufCBinaryData`'s
/// `data` and `len`: the wire's bytes, all of them). Refused, naming the field (and the
/// element's `index` in a repeated field, or -1): bytes that are not UTF-8, and U+0000,
/// which would cut the text short wherever it goes next as a C string (protobuf-c's own
/// `char *` strings did exactly that to every field).
@inline(__always)
package func _liftString(
    _ data: UnsafeMutablePointer<UInt8>?, _ count: Int, _ message: StaticString, _ field: StaticString, _ index: Int
) throws(ProtoDecodingError) -> String {
    guard count > 0, let data else { return "" }
    if _containsNUL(data, count) {
        throw .stringContainsNUL(message: "\(message)", field: _ProtoFieldPath.element(field, index))
    }
    guard let s = String(validating: UnsafeBufferPointer(start: data, count: count), as: UTF8.self) else {
        throw .invalidUTF8(message: "\(message)", field: _ProtoFieldPath.element(field, index))
    }
    return s
}

/// Lifts what field `field` (element `index`, or -1) of `message` holds; a string refused
/// inside it is named from `message` on: `field[index].inner`.
@inline(__always)
package func _liftNested<T>(
    _ message: StaticString, _ field: StaticString, _ index: Int, _ lift: () throws(ProtoDecodingError) -> T
) throws(ProtoDecodingError) -> T {
    do {
        return try lift()
    } catch {
        throw error.nested(in: message, field: field, index: index)
    }
}

@inline(__always)
func _containsNUL(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    // memchr's setup costs more than a plain loop on the short strings typical here.
    if count < 64 {
        for i in 0..<count where bytes[i] == 0 { return true }
        return false
    }
    return memchr(bytes, 0, count) != nil
}

/// The bytes of a `ProtobufCBinaryData` (its `data` and `len`).
@inline(__always)
package func _liftBytes(_ data: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard count > 0, let data else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: count))
}

@inline(__always)
package func _liftScalars<T>(_ p: UnsafeMutablePointer<T>?, _ count: Int) -> [T] {
    guard count > 0, let p else { return [] }
    return Array(UnsafeBufferPointer(start: p, count: count))
}

/// Holds one field of a recursive message out of line, so the Swift struct has a
/// finite size. Immutable: setting the field stores a new box.
package final class _ProtoBox<T: Hashable & Sendable>: Hashable, Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
    package static func == (a: _ProtoBox, b: _ProtoBox) -> Bool { a === b || a.value == b.value }
    package func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }
}
