import CNghttp2
package import NIOCore

/// The nghttp2 session of one connection, and the two ways bytes move through it. Not
/// thread-safe: owned by the connection's event loop. Deleted explicitly by `close()`.
package struct NGHTTP2Session {
    package enum Role { case server, client }

    package struct Options {
        package var role: Role
        package var resetRateLimit: ResetRateLimit?

        package init(role: Role, resetRateLimit: ResetRateLimit?) {
            self.role = role
            self.resetRateLimit = resetRateLimit
        }
    }

    package private(set) var pointer: OpaquePointer?
    /// The session's allocator (free lists for its small blocks; see shim.h), released
    /// after the session.
    private var pool: UnsafeMutablePointer<glimpse_pool>?
    /// The session's callbacks reach `delegate` through `user_data`: it is kept alive until
    /// `close()`, so no callback can outlive it.
    private var owner: Unmanaged<NGHTTP2DelegateBox>?

    /// Creates a session whose callbacks go to `delegate` (retained until `close()`).
    package init(options: Options, delegate: any NGHTTP2SessionDelegate) throws(NGHTTP2Error) {
        var callbacks: OpaquePointer?
        try NGHTTP2Error.check(nghttp2_session_callbacks_new(&callbacks), "nghttp2_session_callbacks_new")
        defer { nghttp2_session_callbacks_del(callbacks) }
        Self.installCallbacks(callbacks!)

        var option: OpaquePointer?
        try NGHTTP2Error.check(nghttp2_option_new(&option), "nghttp2_option_new")
        defer { nghttp2_option_del(option) }
        // Window updates follow what calls have read, not what arrived: real backpressure.
        nghttp2_option_set_no_auto_window_update(option, 1)
        nghttp2_option_set_no_closed_streams(option, 1)
        if let limit = options.resetRateLimit {
            nghttp2_option_set_stream_reset_rate_limit(option, UInt64(limit.burst), UInt64(limit.perSecond))
        }

        guard let pool = glimpse_pool_create() else {
            throw NGHTTP2Error(code: NGHTTP2_ERR_NOMEM.rawValue, operation: "glimpse_pool_create")
        }
        let retained = Unmanaged.passRetained(NGHTTP2DelegateBox(delegate))
        let userData = retained.toOpaque()
        var session: OpaquePointer?
        let created = withUnsafeMutablePointer(to: &pool.pointee.mem) { mem in
            switch options.role {
            case .server: nghttp2_session_server_new3(&session, callbacks, userData, option, mem)
            case .client: nghttp2_session_client_new3(&session, callbacks, userData, option, mem)
            }
        }
        do {
            try NGHTTP2Error.check(
                created, options.role == .server ? "nghttp2_session_server_new3" : "nghttp2_session_client_new3")
        } catch {
            glimpse_pool_release(pool)
            retained.release()
            throw error
        }
        pointer = session
        self.pool = pool
        self.owner = retained
    }

    package mutating func close() {
        if let pointer { nghttp2_session_del(pointer) }
        pointer = nil
        glimpse_pool_release(pool)
        pool = nil
        owner?.release()
        owner = nil
    }

    /// Sends our SETTINGS and opens the connection window to `connectionWindow` (HTTP/2
    /// starts it at 65,535; it cannot be made smaller for the peer).
    package func start(_ config: HTTP2Config, connectionWindow: Int, isClient: Bool) throws(NGHTTP2Error) {
        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: UInt32(config.maxConcurrentStreams)),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue),
                value: UInt32(config.initialStreamWindowSize)),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                value: UInt32(config.maxHeaderListSize)),
        ]
        if isClient {
            settings.append(nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0))
        }
        try NGHTTP2Error.check(
            nghttp2_submit_settings(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), settings, settings.count),
            "nghttp2_submit_settings")
        try NGHTTP2Error.check(
            nghttp2_session_set_local_window_size(
                pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(connectionWindow)),
            "nghttp2_session_set_local_window_size")
    }

    /// Feeds received bytes; callbacks run inside. Returns nghttp2's error if the session failed.
    package func receive(_ buffer: ByteBuffer) throws(NGHTTP2Error) {
        let result = buffer.withUnsafeReadableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return glimpse_nghttp2_session_mem_recv(pointer, base.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        try NGHTTP2Error.check(result, "nghttp2_session_mem_recv")
    }

    /// Moves every frame nghttp2 has ready into `buffer` (callbacks run inside).
    package func drain(into buffer: inout ByteBuffer) throws(NGHTTP2Error) {
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(pointer, &data)
            try NGHTTP2Error.check(count, "nghttp2_session_mem_send")
            guard count > 0, let data else { return }
            buffer.writeBytes(UnsafeRawBufferPointer(start: data, count: count))
        }
    }

    package var wantsReadOrWrite: Bool {
        nghttp2_session_want_read(pointer) != 0 || nghttp2_session_want_write(pointer) != 0
    }

    /// Credit for `bytes` of `stream`'s window (a WINDOW_UPDATE once half the window is due).
    package func consumeStream(_ stream: Int32, bytes: Int) {
        guard bytes > 0 else { return }
        nghttp2_session_consume_stream(pointer, stream, bytes)
    }

    /// Credit for `bytes` of the connection window (a WINDOW_UPDATE once half of it is due).
    package func consumeConnection(bytes: Int) {
        guard bytes > 0 else { return }
        nghttp2_session_consume_connection(pointer, bytes)
    }

    /// Sends the connection credit nghttp2 holds back until half the window is due: all
    /// the received bytes but the `held` ones. For when the held bytes take half the window
    /// or more, where the rest could never reach half and the peer would wait for good.
    package func sendConnectionCredit(keeping held: Int) throws(NGHTTP2Error) {
        let unacknowledged = Int(nghttp2_session_get_effective_recv_data_length(pointer))
        let credit = unacknowledged - held
        guard credit > 0 else { return }
        try NGHTTP2Error.check(
            nghttp2_submit_window_update(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(credit)),
            "nghttp2_submit_window_update")
    }

    /// Asks nghttp2 to call the stream's data provider again. A stream that is gone or has
    /// no deferred data is not an error here (its end raced the resumption); only a fatal
    /// error (out of memory) is.
    package func resumeData(stream: Int32) throws(NGHTTP2Error) {
        let result = nghttp2_session_resume_data(pointer, stream)
        if result < 0, nghttp2_is_fatal(result) != 0 {
            throw NGHTTP2Error(code: result, operation: "nghttp2_session_resume_data")
        }
    }

    package func resetStream(_ stream: Int32, errorCode: UInt32) throws(NGHTTP2Error) {
        try NGHTTP2Error.check(
            nghttp2_submit_rst_stream(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, errorCode),
            "nghttp2_submit_rst_stream")
    }

    package func streamExists(_ stream: Int32) -> Bool {
        nghttp2_session_find_stream(pointer, stream) != nil
    }

    package func isRemoteClosed(_ stream: Int32) -> Bool {
        nghttp2_session_get_stream_remote_close(pointer, stream) != 0
    }

    package func ping(_ opaque: UInt64) throws(NGHTTP2Error) {
        var bytes = opaque.bigEndian
        let result = withUnsafeBytes(of: &bytes) { raw in
            nghttp2_submit_ping(
                pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), raw.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        try NGHTTP2Error.check(result, "nghttp2_submit_ping")
    }

    package func terminate(errorCode: UInt32) throws(NGHTTP2Error) {
        try NGHTTP2Error.check(
            nghttp2_session_terminate_session(pointer, errorCode), "nghttp2_session_terminate_session")
    }

    package func shutdownNotice() throws(NGHTTP2Error) {
        try NGHTTP2Error.check(nghttp2_submit_shutdown_notice(pointer), "nghttp2_submit_shutdown_notice")
    }

    package func finalGoAway() throws(NGHTTP2Error) {
        try NGHTTP2Error.check(
            nghttp2_submit_goaway(
                pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(pointer),
                HTTP2ErrorCode.noError, nil, 0),
            "nghttp2_submit_goaway")
    }
}
