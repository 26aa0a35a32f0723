package import NIOCore

/// A peer's address as gRPC names it (`ServerContext.remotePeer`, and in logs).
package enum PeerAddress {
    /// `ipv4:127.0.0.1:51234`, `ipv6:[::1]:51234`, `unix:/path`; `unknown` without one.
    package static func describe(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        return switch address {
        case .v4(let a): "ipv4:\(a.host):\(address.port ?? 0)"
        case .v6(let a): "ipv6:[\(a.host)]:\(address.port ?? 0)"
        case .unixDomainSocket: "unix:\(address.pathname ?? "")"
        }
    }
}
