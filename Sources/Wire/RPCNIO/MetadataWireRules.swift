import RPCCore

/// What custom metadata may go on the wire: lower-case names of `0-9 a-z - _ .`, not a
/// pseudo-header or a header the transport writes itself; text values of printable ASCII
/// that neither begin nor end with a space (RFC 9113 §8.2.1: the peer would reset the
/// stream).
enum MetadataWireRules {
    private static let reserved: Set<String> = [
        "content-type", "te", "grpc-status", "grpc-message", "grpc-timeout", "grpc-encoding",
        "grpc-accept-encoding", "content-length", "connection", "transfer-encoding", "upgrade",
        "keep-alive", "proxy-connection", "host",
    ]

    static func isSendable(_ entry: Metadata.Entry) -> Bool {
        guard isValidName(entry.key), !reserved.contains(entry.key) else { return false }
        if case .string(let value) = entry.value {
            return value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
                && value.utf8.first != UInt8(ascii: " ") && value.utf8.last != UInt8(ascii: " ")
        }
        return true
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }
}
