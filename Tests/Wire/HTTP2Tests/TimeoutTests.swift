import HTTP2
import RPCNIO
import Synchronization
import Testing

/// Connections that say nothing are not kept: the idle timeout (no stream open) and, on TLS
/// listeners, the handshake timeout. Each is reported to the server's event sink. The test
/// waits for the server to close the connection; the suite's time limit is the only clock.
@Suite(.timeLimit(.minutes(2)))
struct TimeoutTests {
    final class Reports: Sendable {
        let events = Mutex<[ConnectionEvent]>([])
        var sink: ConnectionEventSink { { [self] event in events.withLock { $0.append(event) } } }
        var kinds: [String] { events.withLock { $0.map(\.kind) } }
    }

    @Test func anIdleConnectionGetsGoAwayAndIsClosed() async throws {
        let reports = Reports()
        var config = HTTP2ServerConfig.defaults
        config.idleTimeout = .milliseconds(100)
        config.events = reports.sink
        try await withServer(config: config) { server in
            let received = try await RawConnection.waitForClose(
                port: server.port, after: RawConnection.preface + RawConnection.frame(type: 0x4, []))
            #expect(RawConnection.goAwayErrorCode(in: received) == 0)
        }
        #expect(reports.kinds.contains("idle_closed"))
    }

    @Test func aConnectionThatNeverCompletesItsTLSHandshakeIsClosed() async throws {
        let reports = Reports()
        var config = HTTP2ServerConfig.defaults
        config.idleTimeout = nil  // the handshake timeout alone
        config.tlsHandshakeTimeout = .milliseconds(100)
        config.events = reports.sink
        let certificates = try makeCertificates()
        try await withServer([.tls(port: 0, certificates: certificates.server)], config: config) { server in
            let received = try await RawConnection.waitForClose(port: server.port)
            #expect(received.isEmpty)
        }
        #expect(reports.kinds == ["tls_handshake_timeout"])
    }
}
