package import CNghttp2

/// What a connection does with its nghttp2 session's callbacks: the gRPC server and client
/// here, the plain HTTP/2 server and client in the HTTP2 target. `NGHTTP2Session` installs one set
/// of trampolines that reach the delegate through `user_data`; each method answers as
/// nghttp2's callback does (0, or a fatal error code such as `NGHTTP2_ERR_CALLBACK_FAILURE`).
/// There are no defaults: a method whose signature drifted would otherwise be passed over
/// in silence for a default, and its callback lost.
package protocol NGHTTP2SessionDelegate: AnyObject {
    /// A HEADERS frame begins (its fields follow, one `onHeader` each).
    func onBeginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32
    /// One field of the header block `frame` begins.
    func onHeader(
        _ frame: UnsafePointer<nghttp2_frame>, _ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer
    ) -> Int32
    func onFrameReceived(_ frame: UnsafePointer<nghttp2_frame>) -> Int32
    /// DATA of `stream` (padding excluded), before the frame's `onFrameReceived`.
    func onDataChunk(_ stream: Int32, _ data: UnsafeRawBufferPointer) -> Int32
    func onFrameSent(_ frame: UnsafePointer<nghttp2_frame>) -> Int32
    func onStreamClosed(_ stream: Int32, errorCode: UInt32) -> Int32
    func onFrameNotSent(_ frame: UnsafePointer<nghttp2_frame>, errorCode: Int32) -> Int32
    /// The next bytes of `stream`'s body, for `NGHTTP2Session.dataProvider`: copies up to
    /// `length` into `buffer`, sets `NGHTTP2_DATA_FLAG_EOF` in `flags` at the end, returns the
    /// count (or `NGHTTP2_ERR_DEFERRED` to be resumed later).
    func readData(
        _ stream: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int
}

/// The session's delegate behind `user_data`, held until the session is deleted (so no
/// callback can outlive it).
final class NGHTTP2DelegateBox {
    let delegate: any NGHTTP2SessionDelegate

    init(_ delegate: any NGHTTP2SessionDelegate) { self.delegate = delegate }

    /// The delegate behind `user_data`, borrowed for the call.
    @inline(__always)
    static func with<R>(_ userData: UnsafeMutableRawPointer?, _ body: (any NGHTTP2SessionDelegate) -> R) -> R {
        Unmanaged<NGHTTP2DelegateBox>.fromOpaque(userData!)._withUnsafeGuaranteedRef { body($0.delegate) }
    }
}

extension NGHTTP2Session {
    /// The one set of callbacks every session gets: one-line trampolines to its delegate.
    static func installCallbacks(_ callbacks: OpaquePointer) {
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, userData in
            NGHTTP2DelegateBox.with(userData) { $0.onBeginHeaders(frame!) }
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameCount, value, valueCount, _, userData in
            NGHTTP2DelegateBox.with(userData) {
                $0.onHeader(
                    frame!, UnsafeRawBufferPointer(start: name, count: nameCount),
                    UnsafeRawBufferPointer(start: value, count: valueCount))
            }
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            NGHTTP2DelegateBox.with(userData) { $0.onFrameReceived(frame!) }
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, count, userData in
            NGHTTP2DelegateBox.with(userData) {
                $0.onDataChunk(stream, UnsafeRawBufferPointer(start: data, count: count))
            }
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, userData in
            NGHTTP2DelegateBox.with(userData) { $0.onFrameSent(frame!) }
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, errorCode, userData in
            NGHTTP2DelegateBox.with(userData) { $0.onStreamClosed(stream, errorCode: errorCode) }
        }
        nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks) { _, frame, errorCode, userData in
            NGHTTP2DelegateBox.with(userData) { $0.onFrameNotSent(frame!, errorCode: errorCode) }
        }
    }

    /// The data provider of every body a session sends: its delegate's `readData`.
    package static let dataProvider = nghttp2_data_provider(
        source: nghttp2_data_source(ptr: nil),
        read_callback: { _, stream, buffer, length, flags, _, userData in
            NGHTTP2DelegateBox.with(userData) { $0.readData(stream, buffer!, length, flags!) }
        })
}
