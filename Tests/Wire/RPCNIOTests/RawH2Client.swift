import CNghttp2
import NIOCore

/// A bare HTTP/2 client for handler tests: nghttp2's client session in memory, so tests can
/// send what no gRPC client would (wrong content types, floods, resets) and read every frame
/// the server answers with.
final class RawH2Client {
    struct StreamRecord {
        var headers: [(String, String)] = []
        var trailers: [(String, String)] = []
        var data: [UInt8] = []
        var resetCode: UInt32?
        var closedCode: UInt32?
        var sawHeaders = false

        func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }
        func trailer(_ name: String) -> String? { trailers.first { $0.0 == name }?.1 ?? header(name) }
        var grpcStatus: Int? { trailer("grpc-status").flatMap { Int($0) } }
        var isClosed: Bool { closedCode != nil }
    }

    private(set) var session: OpaquePointer!
    var streams: [Int32: StreamRecord] = [:]
    var goAway: (lastStreamID: Int32, errorCode: UInt32)?
    var pingAcks = 0
    var autoPingAck = true
    private var bodies: [Int32: (bytes: [UInt8], end: Bool)] = [:]
    private var retained: Unmanaged<RawH2Client>?

    init(windowSize: Int = 65_535) {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameCount, value, valueCount, _, user in
            RawH2Client.from(user).onHeader(
                frame!, String(decoding: UnsafeRawBufferPointer(start: name, count: nameCount), as: UTF8.self),
                String(decoding: UnsafeRawBufferPointer(start: value, count: valueCount), as: UTF8.self))
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, count, user in
            RawH2Client.from(user).streams[stream, default: StreamRecord()].data.append(
                contentsOf: UnsafeRawBufferPointer(start: data, count: count))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            RawH2Client.from(user).onFrame(frame!)
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, code, user in
            RawH2Client.from(user).streams[stream, default: StreamRecord()].closedCode = code
            return 0
        }
        let retained = Unmanaged.passRetained(self)
        self.retained = retained
        var option: OpaquePointer?
        nghttp2_option_new(&option)
        defer { nghttp2_option_del(option) }
        nghttp2_option_set_no_auto_ping_ack(option, 1)
        var session: OpaquePointer?
        nghttp2_session_client_new2(&session, callbacks, retained.toOpaque(), option)
        self.session = session
        let settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: UInt32(windowSize)),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), settings, settings.count)
    }

    func close() {
        nghttp2_session_del(session)
        session = nil
        retained?.release()
        retained = nil
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> RawH2Client {
        Unmanaged<RawH2Client>.fromOpaque(user!).takeUnretainedValue()
    }

    private func onHeader(_ frame: UnsafePointer<nghttp2_frame>, _ name: String, _ value: String) -> Int32 {
        let id = frame.pointee.hd.stream_id
        var record = streams[id, default: StreamRecord()]
        if record.sawHeaders, frame.pointee.headers.cat == NGHTTP2_HCAT_HEADERS {
            record.trailers.append((name, value))
        } else {
            record.headers.append((name, value))
        }
        streams[id] = record
        return 0
    }

    private func onFrame(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        switch UInt32(header.type) {
        case NGHTTP2_HEADERS.rawValue:
            streams[header.stream_id, default: StreamRecord()].sawHeaders = true
        case NGHTTP2_RST_STREAM.rawValue:
            streams[header.stream_id, default: StreamRecord()].resetCode = frame.pointee.rst_stream.error_code
        case NGHTTP2_GOAWAY.rawValue:
            goAway = (frame.pointee.goaway.last_stream_id, frame.pointee.goaway.error_code)
        case NGHTTP2_PING.rawValue:
            if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0 {
                pingAcks += 1
            } else if autoPingAck {
                var opaque = frame.pointee.ping.opaque_data
                withUnsafeBytes(of: &opaque) { raw in
                    _ = nghttp2_submit_ping(
                        session, UInt8(NGHTTP2_FLAG_ACK.rawValue), raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        default: break
        }
        return 0
    }

    /// Opens a stream. With `body`, sends it as DATA (and END_STREAM if `end`).
    @discardableResult
    func request(
        path: String, headers: [(String, String)] = [], contentType: String? = "application/grpc",
        method: String = "POST", body: [UInt8]? = nil, end: Bool = true
    ) -> Int32 {
        var fields: [(String, String)] = [
            (":method", method), (":scheme", "http"), (":path", path), (":authority", "test"),
        ]
        if let contentType { fields.append(("content-type", contentType)) }
        fields.append(("te", "trailers"))
        fields.append(contentsOf: headers)
        let id = withFields(fields) { nva, count -> Int32 in
            if body != nil {
                var provider = nghttp2_data_provider(
                    source: nghttp2_data_source(ptr: nil), read_callback: RawH2Client.readBody)
                return nghttp2_submit_request(session, nil, nva, count, &provider, nil)
            }
            return nghttp2_submit_request(session, nil, nva, count, nil, nil)
        }
        if let body { bodies[id] = (body, end) }
        return id
    }

    /// Queues more DATA on a stream opened with a body.
    func send(_ bytes: [UInt8], on stream: Int32, end: Bool) {
        bodies[stream, default: ([], false)].bytes.append(contentsOf: bytes)
        bodies[stream]!.end = end
        nghttp2_session_resume_data(session, stream)
    }

    func reset(_ stream: Int32, code: UInt32 = 0x8) {
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, code)
    }

    func ping() {
        nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
    }

    func remoteWindow(_ stream: Int32) -> Int { Int(nghttp2_session_get_stream_remote_window_size(session, stream)) }

    /// What the server's connection window lets this client send now.
    var connectionRemoteWindow: Int { Int(nghttp2_session_get_remote_window_size(session)) }

    private static let readBody: nghttp2_data_source_read_callback = { _, stream, buffer, length, flags, _, user in
        let client = RawH2Client.from(user)
        guard var body = client.bodies[stream] else { return Int(NGHTTP2_ERR_DEFERRED.rawValue) }
        let count = min(length, body.bytes.count)
        body.bytes.withUnsafeBufferPointer { buffer!.update(from: $0.baseAddress!, count: count) }
        body.bytes.removeFirst(count)
        client.bodies[stream] = body
        if body.bytes.isEmpty {
            if body.end {
                flags!.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            } else if count == 0 {
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        return count
    }

    private func withFields<R>(_ fields: [(String, String)], _ body: (UnsafePointer<nghttp2_nv>, Int) -> R) -> R {
        var bytes: [UInt8] = []
        var spans: [(Int, Int, Int, Int)] = []
        for (name, value) in fields {
            let nameStart = bytes.count
            bytes.append(contentsOf: name.utf8)
            let valueStart = bytes.count
            bytes.append(contentsOf: value.utf8)
            spans.append((nameStart, name.utf8.count, valueStart, value.utf8.count))
        }
        bytes.append(0)  // never empty, so every span has an address
        return bytes.withUnsafeMutableBufferPointer { raw in
            let base = raw.baseAddress!
            let nva = spans.map { span in
                nghttp2_nv(
                    name: base + span.0, value: base + span.2, namelen: span.1, valuelen: span.3,
                    flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            return nva.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
        }
    }

    /// What the client wants to send now.
    func outgoing() -> [UInt8] {
        var out: [UInt8] = []
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data else { return out }
            out.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
    }

    func receive(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { glimpse_nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
    }
}
