/// The byte layer of the snapshot format (see `SnapshotEncoder`): LEB128 varints,
/// zigzag for signed integers, IEEE bit patterns for floating point (NaN payloads and
/// signed zeros survive), length-prefixed UTF-8 and byte strings.
struct SnapshotWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Little-endian, all of the value's bytes.
    mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func blob(_ raw: UnsafeRawBufferPointer) {
        varint(UInt64(raw.count))
        bytes.append(contentsOf: raw)
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { blob(UnsafeRawBufferPointer($0)) }
    }

    /// Reserves a 4-byte element count, for a container whose size is known only at its end.
    mutating func reserveCount() -> Int {
        defer { fixed(UInt32(0)) }
        return bytes.count
    }

    /// Adds one to the count reserved at `offset`.
    mutating func bumpCount(at offset: Int) {
        var count =
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        count += 1
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: count >> (8 * index)) }
    }
}

/// Reads what `SnapshotWriter` wrote; every read checks the bounds and throws on a short
/// or malformed input rather than trapping.
struct SnapshotReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func byte() throws(SnapshotFormatError) -> UInt8 {
        guard position < bytes.count else { throw .truncated(at: position) }
        defer { position += 1 }
        return bytes[position]
    }

    func peekByte() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func varint() throws(SnapshotFormatError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw .malformed("a varint longer than 64 bits", at: position) }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(SnapshotFormatError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func fixed<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type) throws(SnapshotFormatError) -> T {
        let size = MemoryLayout<T>.size
        guard bytes.count - position >= size else { throw .truncated(at: position) }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[position + index]) << (8 * index) }
        position += size
        return value
    }

    mutating func length() throws(SnapshotFormatError) -> Int {
        let count = try varint()
        guard count <= UInt64(bytes.count - position) else { throw .truncated(at: position) }
        return Int(count)
    }

    mutating func blob() throws(SnapshotFormatError) -> ArraySlice<UInt8> {
        let count = try length()
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func string() throws(SnapshotFormatError) -> String {
        let start = position
        guard let text = String(validating: try blob(), as: UTF8.self) else {
            throw .malformed("a string that is not UTF-8", at: start)
        }
        return text
    }
}

/// Why snapshot bytes could not be read (or a value could not be written).
package enum SnapshotFormatError: Error, Equatable, CustomStringConvertible {
    case truncated(at: Int)
    case malformed(String, at: Int)
    /// The value at `at` was written under key `found`, where the reader expected `expected`:
    /// the state's layout changed since the snapshot was written.
    case keyMismatch(expected: String, found: String, at: Int)
    case unsupported(String)

    package var description: String {
        switch self {
        case .truncated(let at): "snapshot ends early (byte \(at))"
        case .malformed(let what, let at): "snapshot holds \(what) (byte \(at))"
        case .keyMismatch(let expected, let found, let at):
            "snapshot has \(found) where \(expected) belongs (byte \(at))"
        case .unsupported(let what): "the snapshot format does not support \(what)"
        }
    }
}
