import Logging
package import RPCNIO

/// What the transports report about peers (`ConnectionEvent`), as log records with the
/// peer's address, through a `RateLimitedLog`.
extension RateLimitedLog {
    /// A sink for `NIOServerConfig.events` and `HTTP2ServerConfig.events`.
    package var connectionEvents: ConnectionEventSink {
        { [self] event in record(event) }
    }

    package func record(_ event: ConnectionEvent) {
        switch event {
        case .goAwaySent(let peer, let code, let reason):
            log(
                event.kind, level: .warning, "GOAWAY sent to \(peer): \(reason)",
                metadata: ["peer": "\(peer)", "error_code": "\(code)"])
        case .idleClosed(let peer, let after):
            log(event.kind, level: .info, "closed \(peer): no call open for \(after)", metadata: ["peer": "\(peer)"])
        case .handshakeTimedOut(let peer, let after):
            log(
                event.kind, level: .warning, "closed \(peer): TLS handshake not done within \(after)",
                metadata: ["peer": "\(peer)"])
        case .acceptFailed(let error, let backoff):
            log(
                event.kind, level: .error, "accept failed (\(error)); accepting again in \(backoff)",
                metadata: ["error": "\(error)"])
        case .streamReset(let peer, let stream, let reason):
            log(
                event.kind, level: .warning, "stream \(stream) of \(peer): \(reason)",
                metadata: ["peer": "\(peer)", "stream": "\(stream)"])
        }
    }
}
