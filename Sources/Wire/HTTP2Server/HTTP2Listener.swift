/// Where an `HTTP2Server` listens, and how connections there start.
public struct HTTP2Listener: Sendable {
    public enum Security: Sendable {
        /// h2c with prior knowledge: the connection starts with the HTTP/2 preface
        /// (`curl --http2-prior-knowledge`).
        case cleartext
        /// TLS 1.2 or later with ALPN offering `h2`. After the handshake the connection
        /// speaks HTTP/2 whatever ALPN settled, also when the client offered none.
        case tls(TLSCertificateFiles)
    }

    public var host: String
    /// 0 picks a free port (see `HTTP2Server.listeningAddresses()`).
    public var port: Int
    public var security: Security

    public init(host: String, port: Int, security: Security) {
        self.host = host
        self.port = port
        self.security = security
    }

    public static func cleartext(host: String = "127.0.0.1", port: Int) -> Self {
        Self(host: host, port: port, security: .cleartext)
    }

    public static func tls(host: String = "127.0.0.1", port: Int, certificates: TLSCertificateFiles) -> Self {
        Self(host: host, port: port, security: .tls(certificates))
    }
}

/// A server's certificate chain and private key, as PEM files.
public struct TLSCertificateFiles: Sendable, Hashable {
    /// The server's certificate first, then any intermediates.
    public var certificateChain: String
    public var privateKey: String

    public init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
