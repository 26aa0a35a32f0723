public import RPCCore

/// Server-sent events (the WHATWG `text/event-stream` format) as a JSON call's response:
///
///     data: {"sequence":"7",…}          one event per response message
///
///     : keepalive                       a comment while the stream is idle
///
///     event: error                      the call failed: its status, then the end
///     data: {"code":5,"status":"NOT_FOUND","message":"…"}
///
/// A message is one line of JSON; should it hold a line break anyway, each line goes in a
/// `data:` line of its own, which the reader joins back with line breaks.
public enum EventStreamFraming {
    public static let contentType = "text/event-stream"

    /// One event carrying `message`. A reader ends a line at CRLF, LF or a lone CR: each
    /// of them starts the next `data:` line here (a CR passed through would end the line
    /// early and the rest would be read as a field of its own).
    public static func data(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count + 8)
        out.append(contentsOf: "data: ".utf8)
        var index = message.startIndex
        while index < message.endIndex {
            let byte = message[index]
            index += 1
            if byte == 0x0D || byte == 0x0A {
                if byte == 0x0D, index < message.endIndex, message[index] == 0x0A { index += 1 }
                out.append(0x0A)
                out.append(contentsOf: "data: ".utf8)
            } else {
                out.append(byte)
            }
        }
        out.append(contentsOf: [0x0A, 0x0A])
        return out
    }

    /// The `error` event with the call's status.
    public static func error(_ status: Status, details: [UInt8]? = nil) -> [UInt8] {
        Array("event: error\n".utf8) + data(JSONErrorBody.object(status, details: details))
    }

    /// A comment: readers ignore it; it keeps the connection from looking dead.
    public static let keepalive: [UInt8] = Array(": keepalive\n\n".utf8)
}
