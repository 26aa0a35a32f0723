import CNghttp2

/// A failed nghttp2 call: the library's code and its own description of it. C return codes
/// are turned into this in one place (`NGHTTP2Error.check`).
public struct NGHTTP2Error: Error, Hashable, CustomStringConvertible {
    public let code: Int32
    public let operation: String

    public var description: String {
        "\(operation) failed: \(String(cString: nghttp2_strerror(code))) (\(code))"
    }

    package init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// True for the errors after which the session is unusable.
    public var isFatal: Bool { nghttp2_is_fatal(code) != 0 }

    @discardableResult
    package static func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(NGHTTP2Error) -> Int32 {
        if result < 0 { throw NGHTTP2Error(code: result, operation: operation()) }
        return result
    }

    @discardableResult
    package static func check(_ result: Int, _ operation: @autoclosure () -> String) throws(NGHTTP2Error) -> Int {
        if result < 0 { throw NGHTTP2Error(code: Int32(truncatingIfNeeded: result), operation: operation()) }
        return result
    }
}

/// HTTP/2 error codes (RFC 9113 §7) we send.
package enum HTTP2ErrorCode {
    package static let noError: UInt32 = 0x0
    package static let protocolError: UInt32 = 0x1
    package static let internalError: UInt32 = 0x2
    package static let refusedStream: UInt32 = 0x7
    package static let cancel: UInt32 = 0x8
    package static let enhanceYourCalm: UInt32 = 0xB
}
