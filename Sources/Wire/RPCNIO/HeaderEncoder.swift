package import CNghttp2
import RPCCore

/// Builds nghttp2 header lists without allocating per call: fixed fields point at static
/// strings (nghttp2 is told not to copy them), other fields are packed into one reused byte
/// buffer that nghttp2 copies at submit time. Owned by one event loop.
package struct HeaderEncoder {
    private var fields: [nghttp2_nv] = []
    private var bytes: [UInt8] = []
    /// For each dynamic field: its index in `fields` and where its name and value start.
    private var dynamic: [(index: Int, name: Int, nameCount: Int, value: Int, valueCount: Int)] = []

    package init() {
        fields.reserveCapacity(16)
        bytes.reserveCapacity(512)
    }

    package mutating func reset() {
        fields.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        dynamic.removeAll(keepingCapacity: true)
    }

    /// A field whose name and value live as long as the process.
    package mutating func addStatic(_ name: StaticString, _ value: StaticString) {
        fields.append(
            nghttp2_nv(
                name: UnsafeMutablePointer(mutating: name.utf8Start),
                value: UnsafeMutablePointer(mutating: value.utf8Start),
                namelen: name.utf8CodeUnitCount, valuelen: value.utf8CodeUnitCount,
                flags: UInt8(NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue)))
    }

    package mutating func add(_ name: StaticString, _ value: String) {
        add(name: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), value: value)
    }

    mutating func add(name: UnsafeRawBufferPointer, value: String) {
        let nameStart = bytes.count
        bytes.append(contentsOf: name)
        let valueStart = bytes.count
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
        appendDynamic(nameStart: nameStart, valueStart: valueStart)
    }

    package mutating func add(name: String, value: String) {
        let nameStart = bytes.count
        bytes.append(contentsOf: name.utf8)
        let valueStart = bytes.count
        bytes.append(contentsOf: value.utf8)
        appendDynamic(nameStart: nameStart, valueStart: valueStart)
    }

    private mutating func appendDynamic(nameStart: Int, valueStart: Int) {
        dynamic.append((fields.count, nameStart, valueStart - nameStart, valueStart, bytes.count - valueStart))
        fields.append(nghttp2_nv())
    }

    /// Custom metadata: entries whose key is reserved or not a valid header name, or whose
    /// text value is not printable ASCII, are left out (they could not reach the peer intact).
    mutating func add(_ metadata: Metadata) {
        for entry in metadata where MetadataWireRules.isSendable(entry) {
            switch entry.value {
            case .string(let value): add(name: entry.key, value: value)
            case .binary(let value): add(name: entry.key, value: Base64.encode(value))
            }
        }
    }

    /// The longest `grpc-message` sent, encoded; longer ones are cut with a marker. nghttp2
    /// sends no header block over 64 KiB (the call would never end), and grpc-core clients
    /// refuse trailers past their 8 KiB metadata limit: 4 KiB leaves room for the rest.
    package static let statusMessageLimit = 4096

    mutating func addStatus(_ status: Status) {
        addStatic("grpc-status", StatusStrings.value(status.code))
        if !status.message.isEmpty {
            add("grpc-message", PercentEncoding.encode(status.message, limit: Self.statusMessageLimit))
        }
    }

    /// Calls `body` with the finished list; the pointers are valid only inside it.
    package mutating func withFields<R>(_ body: (UnsafePointer<nghttp2_nv>, Int) -> R) -> R {
        let dynamic = self.dynamic
        return bytes.withUnsafeMutableBufferPointer { raw in
            for d in dynamic {
                fields[d.index] = nghttp2_nv(
                    name: raw.baseAddress! + d.name, value: raw.baseAddress! + d.value,
                    namelen: d.nameCount, valuelen: d.valueCount, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            return fields.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
        }
    }
}

/// `grpc-status` values as static strings, so that the status never allocates.
enum StatusStrings {
    static func value(_ code: StatusCode) -> StaticString {
        switch code {
        case .ok: "0"
        case .cancelled: "1"
        case .unknown: "2"
        case .invalidArgument: "3"
        case .deadlineExceeded: "4"
        case .notFound: "5"
        case .alreadyExists: "6"
        case .permissionDenied: "7"
        case .resourceExhausted: "8"
        case .failedPrecondition: "9"
        case .aborted: "10"
        case .outOfRange: "11"
        case .unimplemented: "12"
        case .internal: "13"
        case .unavailable: "14"
        case .dataLoss: "15"
        case .unauthenticated: "16"
        }
    }
}
