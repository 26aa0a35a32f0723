/// How a client turns HTTP/2 and HTTP failures into gRPC statuses, as grpc's
/// `doc/PROTOCOL-HTTP2.md` (RST_STREAM) and `doc/http-grpc-status-mapping.md` (HTTP status,
/// used only when no `grpc-status` arrived) table them.
public enum HTTP2ErrorMapping {
    /// The status for a RST_STREAM with `errorCode` received by a client.
    public static func status(forResetCode errorCode: UInt32) -> Status {
        let code: StatusCode =
            switch errorCode {
            case 0x7: .unavailable  // REFUSED_STREAM: nothing was processed
            case 0x8: .cancelled  // CANCEL from the server
            case 0xB: .resourceExhausted  // ENHANCE_YOUR_CALM
            case 0xC: .permissionDenied  // INADEQUATE_SECURITY
            default: .internal  // NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, ...
            }
        return Status(code: code, message: "Stream reset by peer: HTTP/2 error code \(http2ErrorName(errorCode))")
    }

    /// The status for a response whose HTTP status was not 200 and that had no grpc-status.
    public static func status(forHTTPStatus httpStatus: Int) -> Status {
        let code: StatusCode =
            switch httpStatus {
            case 400, 431: .internal
            case 401: .unauthenticated
            case 403: .permissionDenied
            case 404: .unimplemented
            case 429, 502, 503, 504: .unavailable
            default: .unknown
            }
        return Status(code: code, message: "Received HTTP status \(httpStatus) without grpc-status")
    }

    public static func http2ErrorName(_ code: UInt32) -> String {
        let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
            "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
            "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
        ]
        return Int(code) < names.count ? names[Int(code)] : "0x\(String(code, radix: 16))"
    }
}
