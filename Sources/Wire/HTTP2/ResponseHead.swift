import CNghttp2
import RPCNIO

extension HeaderEncoder {
    /// Adds `:status`, `response`'s fields (names lowercased) and `content-length`.
    /// Returns false if the head cannot be sent as HTTP/2 (see `HTTP2Response`); the
    /// encoder then holds a partial list, to be reset.
    mutating func addResponseHead(_ response: HTTP2Response, contentLength: Int?) -> Bool {
        guard (200...599).contains(response.status) else { return false }
        add(":status", String(response.status))
        for field in response.headers {
            let name =
                field.name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
                ? String(decoding: field.name.utf8.map(HTTP2Headers.lowercased), as: UTF8.self) : field.name
            if name == "content-length" { continue }  // ours is the one that matches the body
            guard ResponseFieldRules.isSendable(name: name, value: field.value) else { return false }
            add(name: name, value: field.value)
        }
        if let contentLength { add("content-length", String(contentLength)) }
        return true
    }
}

/// Which response fields HTTP/2 lets through (RFC 9113 §8.2).
enum ResponseFieldRules {
    /// Connection-specific fields, which HTTP/2 forbids (§8.2.2); `te` has no place in a
    /// response.
    static let connectionSpecific: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te",
    ]

    static func isSendable(name: String, value: String) -> Bool {
        guard !connectionSpecific.contains(name) else { return false }
        var name = name, value = value
        let validName = name.withUTF8 { nghttp2_check_header_name($0.baseAddress, $0.count) != 0 }
        let validValue = value.withUTF8 { nghttp2_check_header_value_rfc9113($0.baseAddress, $0.count) != 0 }
        return validName && validValue
    }
}
