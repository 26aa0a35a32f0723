internal import CProtobufC
// See ProtoArena.swift: the members of protobuf-c's structs are attributed to GlimpseProtoC.
internal import GlimpseProtoC

/// Walks the wire format of a message whose schema allows unbounded nesting and refuses
/// it when sub-messages nest deeper than `ProtoLimits.maxDepth`, before protobuf-c's
/// recursive `unpack` sees it. Iterative, allocation-free for ordinary depths, and it
/// reads only tags and lengths. Structural damage it trips over (a cut varint, a length
/// past its parent's end, groups, which proto3 has not) is reported as malformed.
package enum _ProtoDepthGuard {
    package static func check(
        _ bytes: UnsafeRawBufferPointer,
        rootDescriptor: _ProtoDescriptor,
        message: String
    ) throws(ProtoDecodingError) {
        let rootDescriptor = rootDescriptor.message
        let end = bytes.count
        var pos = 0
        // (descriptor, end offset) of each open sub-message.
        var descriptors: [UnsafePointer<ProtobufCMessageDescriptor>] = [rootDescriptor]
        var ends: [Int] = [end]
        descriptors.reserveCapacity(16)
        ends.reserveCapacity(16)

        func varint(_ limit: Int) throws(ProtoDecodingError) -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while pos < limit, shift < 64 {
                let byte = bytes[pos]
                pos &+= 1
                result |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return result }
                shift &+= 7
            }
            throw .malformed(message: message)
        }

        while true {
            while let last = ends.last, pos == last, ends.count > 1 {
                ends.removeLast()
                descriptors.removeLast()
            }
            let limit = ends[ends.count - 1]
            if pos >= limit { return }
            let tag = try varint(limit)
            let number = UInt32(truncatingIfNeeded: tag >> 3)
            switch tag & 7 {
            case 0:
                _ = try varint(limit)
            case 1:
                pos &+= 8
                if pos > limit { throw .malformed(message: message) }
            case 5:
                pos &+= 4
                if pos > limit { throw .malformed(message: message) }
            case 2:
                let length = try varint(limit)
                guard length <= UInt64(limit &- pos) else { throw .malformed(message: message) }
                let sub = pos &+ Int(length)
                if let field = protobuf_c_message_descriptor_get_field(descriptors[descriptors.count - 1], number),
                    field.pointee.type == ProtobufCType(rawValue: 16),  // PROTOBUF_C_TYPE_MESSAGE
                    let child = field.pointee.descriptor
                {
                    guard descriptors.count < ProtoLimits.maxDepth else { throw .tooDeep(message: message) }
                    descriptors.append(child.assumingMemoryBound(to: ProtobufCMessageDescriptor.self))
                    ends.append(sub)
                } else {
                    pos = sub
                }
            default:
                throw .malformed(message: message)
            }
        }
    }
}
