/// Where an `HTTP2Server` listens, and how connections there start.
package struct HTTP2Listener: Sendable {
    package enum Security: Sendable {
        /// h2c with prior knowledge: the connection starts with the HTTP/2 preface
        /// (`curl --http2-prior-knowledge`).
        case cleartext
        /// TLS 1.2 or later with ALPN offering `h2`. After the handshake the connection
        /// speaks HTTP/2 whatever ALPN settled, also when the client offered none.
        case tls(TLSCertificateFiles)
    }

    package var host: String
    /// 0 picks a free port (see `HTTP2Server.listeningAddresses()`).
    package var port: Int
    package var security: Security

    package init(host: String, port: Int, security: Security) {
        self.host = host
        self.port = port
        self.security = security
    }

    package static func cleartext(host: String = "127.0.0.1", port: Int) -> Self {
        Self(host: host, port: port, security: .cleartext)
    }

    package static func tls(host: String = "127.0.0.1", port: Int, certificates: TLSCertificateFiles) -> Self {
        Self(host: host, port: port, security: .tls(certificates))
    }
}

/// A server's certificate chain and private key, as PEM files.
package struct TLSCertificateFiles: Sendable, Hashable {
    /// The server's certificate first, then any intermediates.
    package var certificateChain: String
    package var privateKey: String

    package init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
