package import CProtobufC

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the generated glue provides for each message: its protobuf-c C struct and the
/// copies between that struct and the Swift value. Package-internal: no C type leaves the
/// package. The entry points below are inlinable so that each message type gets its own
/// specialized encode and decode, without generic metadata lookups on every call.
package protocol _ProtoCBacked: GlimpseMessage {
    associatedtype _C
    /// Whether the schema lets this message nest without bound (a depth check guards
    /// `unpack`, which recurses in C).
    static var _isRecursive: Bool { get }
    static func _cInit(_ c: UnsafeMutablePointer<_C>)
    static var _descriptor: _ProtoDescriptor { get }
    init(_c c: UnsafePointer<_C>, depth: Int) throws(ProtoDecodingError)
    func _lower(into c: UnsafeMutablePointer<_C>, arena: ProtoArena, depth: Int) throws(ProtoEncodingError)
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
            let c = try arena.lower(message, depth: -1)
            let base = UnsafeRawPointer(c).assumingMemoryBound(to: ProtobufCMessage.self)
            let size = protobuf_c_message_get_packed_size(base)
            guard size > 0 else { return }
            let start = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: size))
            buffer.withUnsafeMutableBufferPointer { all in
                _ = protobuf_c_message_pack(base, all.baseAddress! + start)
            }
        }
    }

    @inlinable
    package static func decode<M: _ProtoCBacked>(
        _ type: M.Type, from bytes: UnsafeRawBufferPointer
    ) throws(ProtoDecodingError) -> M {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else {
            return M()
        }
        if M._isRecursive {
            try _ProtoDepthGuard.check(bytes, rootDescriptor: M._descriptor.pointer, message: M.protoMessageName)
        }
        // unpack needs about the C structs plus a copy of every string: 3x the input is
        // a generous first block; more comes from the heap if needed.
        return try ProtoArena.with(capacity: bytes.count &* 3 &+ 256) { arena throws(ProtoDecodingError) -> M in
            guard let message = protobuf_c_message_unpack(M._descriptor.pointer, arena.allocator, bytes.count, base) else {
                throw .malformed(message: M.protoMessageName)
            }
            return try M(_c: UnsafeRawPointer(message).assumingMemoryBound(to: M._C.self), depth: 0)
        }
    }
}

/// protobuf-c's descriptor of one message type. The C global is not addressable from
/// Swift without copying it, so it is read once from an initialised struct.
package struct _ProtoDescriptor: @unchecked Sendable { // points at an immutable C global
    package let pointer: UnsafePointer<ProtobufCMessageDescriptor>

    package init<C>(_ initialize: (UnsafeMutablePointer<C>) -> Void) {
        let scratch = UnsafeMutablePointer<C>.allocate(capacity: 1)
        defer { scratch.deallocate() }
        initialize(scratch)
        pointer = UnsafeRawPointer(scratch).assumingMemoryBound(to: ProtobufCMessage.self).pointee.descriptor
    }
}

extension ProtoArena {
    /// Builds the C struct of `message` in the arena.
    @inline(__always)
    package func lower<M: _ProtoCBacked>(_ message: M, depth: Int) throws(ProtoEncodingError) -> UnsafeMutablePointer<M._C> {
        guard depth &+ 1 < _protoMaxDepth else { throw .tooDeep(message: M.protoMessageName) }
        let c = allocate(M._C.self, count: 1)
        M._cInit(c)
        try message._lower(into: c, arena: self, depth: depth &+ 1)
        return c
    }

    package func lowerMessages<M: _ProtoCBacked>(
        _ messages: [M], depth: Int
    ) throws(ProtoEncodingError) -> UnsafeMutablePointer<UnsafeMutablePointer<M._C>?> {
        let list = allocate(UnsafeMutablePointer<M._C>?.self, count: messages.count)
        for i in messages.indices { list[i] = try lower(messages[i], depth: depth) }
        return list
    }

    /// A NUL-terminated copy of `string`; refuses strings that contain NUL.
    @inline(__always)
    package func lowerString(
        _ string: String, _ message: StaticString, _ field: StaticString
    ) throws(ProtoEncodingError) -> UnsafeMutablePointer<CChar> {
        var string = string
        let copy: UnsafeMutablePointer<CChar>? = string.withUTF8 { utf8 in
            let count = utf8.count
            if count > 0 {
                // memchr's setup costs more than a plain loop on the short strings typical here.
                if count < 64 {
                    for byte in utf8 where byte == 0 { return nil }
                } else if memchr(utf8.baseAddress!, 0, count) != nil {
                    return nil
                }
            }
            let p = allocate(CChar.self, count: count &+ 1)
            if count > 0 { UnsafeMutableRawPointer(p).copyMemory(from: utf8.baseAddress!, byteCount: count) }
            p[count] = 0
            return p
        }
        guard let copy else { throw .stringContainsNUL(message: "\(message)", field: "\(field)") }
        return copy
    }

    @inline(__always)
    package func lowerBytes(_ bytes: [UInt8]) -> ProtobufCBinaryData {
        let p = allocate(UInt8.self, count: bytes.count)
        bytes.withUnsafeBufferPointer { src in
            if let base = src.baseAddress { p.update(from: base, count: src.count) }
        }
        return ProtobufCBinaryData(len: bytes.count, data: p)
    }

    @inline(__always)
    package func lowerScalars<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
        let p = allocate(T.self, count: values.count)
        values.withUnsafeBufferPointer { src in p.initialize(from: src.baseAddress!, count: src.count) }
        return p
    }
}

@inline(__always)
package func _liftString(
    _ p: UnsafePointer<CChar>?, _ message: StaticString, _ field: StaticString
) throws(ProtoDecodingError) -> String {
    guard let p, p.pointee != 0 else { return "" }
    guard let s = String(validatingCString: p) else {
        throw .invalidUTF8(message: "\(message)", field: "\(field)")
    }
    return s
}

@inline(__always)
package func _liftBytes(_ data: ProtobufCBinaryData) -> [UInt8] {
    guard data.len > 0, let p = data.data else { return [] }
    return Array(UnsafeBufferPointer(start: p, count: data.len))
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
