import RPCCore
import RPCNIO

/// One request stream of a connection, owned by the connection's event loop.
///
/// Life: made when the request's header block is complete; `receiving` its body, then
/// `handling` (the request went to the handler: its body ended, or grew too large), then
/// `answered` (the response is submitted). A request the server refuses itself (header
/// block too large, a value not UTF-8) goes straight to `answered`.
///
/// Invariants:
/// - `held` is the request bytes this stream holds against the receive budget: the bytes
///   of `body` from arrival until the stream is answered or forgotten, then zero.
/// - `body` never grows past `HTTP2ServerConfig.maxRequestBody`.
/// - `unreleased` (received DATA not yet given back to the stream's window) is given back
///   as the bytes arrive: only the connection window holds back credit.
final class RequestStream: CreditedStream {
    enum Phase { case receiving, handling, answered }

    let id: Int32
    @exclusivity(unchecked) var phase = Phase.receiving
    @exclusivity(unchecked) var head: RequestHead?
    @exclusivity(unchecked) var body: [UInt8] = []
    @exclusivity(unchecked) var bodyTooLarge = false
    /// A HEAD request: its response goes out without the body.
    let isHead: Bool
    @exclusivity(unchecked) var held = 0
    @exclusivity(unchecked) var unreleased = 0
    /// The response body being sent, and how much of it went out.
    @exclusivity(unchecked) var responseBody: [UInt8] = []
    @exclusivity(unchecked) var responseSent = 0
    /// GOAWAY to send once this stream is done (see `HTTP2Response.goAway`).
    @exclusivity(unchecked) var goAwayAfter: HTTP2GoAway?

    init(id: Int32, head: RequestHead?) {
        self.id = id
        self.head = head
        self.isHead = head?.method == "HEAD"
    }
}

/// A request's header block as received: pseudo-headers apart, regular fields in order.
struct RequestHead {
    var method = ""
    var path = ""
    var authority: String?
    var scheme = ""
    var headers = HTTP2Headers()
    /// The announced body size, if any (nghttp2 checks it against the DATA received).
    var contentLength: Int?
}

/// Collects one request header block at a time (RFC 9113 §4.3: nothing comes between
/// HEADERS and its CONTINUATIONs), without looking the stream up for each field.
/// Trailer blocks are only counted. nghttp2 has already checked the fields' syntax and
/// the pseudo-headers (HTTP messaging is on): what is left is the size limit it does not
/// enforce, and that values become Strings intact (UTF-8).
struct RequestHeadCollector {
    enum Refusal: Error {
        case tooLarge, notUTF8

        /// The status the server answers with.
        var status: Int {
            switch self {
            case .tooLarge: 431
            case .notUTF8: 400
            }
        }
    }

    /// 0 while no block is being received.
    var stream: Int32 = 0
    var isRequest = false
    private(set) var size = 0
    private var head = RequestHead()
    private var refusal: Refusal?
    let maxHeaderListSize: Int

    init(maxHeaderListSize: Int) {
        self.maxHeaderListSize = maxHeaderListSize
    }

    mutating func begin(stream: Int32, isRequest: Bool) {
        self.stream = stream
        self.isRequest = isRequest
        size = 0
        refusal = nil
        if isRequest { head = RequestHead() }
    }

    /// Takes one field; returns the block's size so far.
    mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, cache: HeaderStringCache) -> Int {
        size += HeaderListSize.fieldSize(nameCount: name.count, valueCount: value.count)
        guard isRequest, refusal == nil else { return size }
        if size > maxHeaderListSize {
            refusal = .tooLarge
            head = RequestHead()  // nothing more is kept
            return size
        }
        guard Self.isUTF8(value) else {
            refusal = .notUTF8
            return size
        }
        if name.first == UInt8(ascii: ":") {
            addPseudo(name: name, value: String(decoding: value, as: UTF8.self))
            return size
        }
        let nameString = cache.string(for: name)
        if nameString == "content-length" { head.contentLength = Int(String(decoding: value, as: UTF8.self)) }
        head.headers.append(name: nameString, value: cache.string(for: value))
        return size
    }

    private mutating func addPseudo(name: UnsafeRawBufferPointer, value: String) {
        switch String(decoding: name, as: UTF8.self) {
        case ":method": head.method = value
        case ":path": head.path = value
        case ":authority": head.authority = value
        case ":scheme": head.scheme = value
        default: break  // :protocol (extended CONNECT is not enabled)
        }
    }

    /// The finished request head, or why the server answers it itself.
    mutating func finish() -> Result<RequestHead, Refusal> {
        stream = 0
        if let refusal { return .failure(refusal) }
        defer { head = RequestHead() }
        return .success(head)
    }

    /// ASCII at a glance; anything else must be valid UTF-8 to be handed over unchanged.
    private static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }
}
