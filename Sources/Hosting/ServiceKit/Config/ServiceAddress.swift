/// Where another service listens: `host:port`, or `[v6]:port`.
package struct ServiceAddress: Sendable, Hashable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port` with a port in 1...65535 (a client cannot call port 0); a bracketed
    /// IPv6 host loses its brackets.
    package init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = Substring(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
        } else if host.contains(":") {
            return nil  // an IPv6 host needs brackets
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        self.init(host: String(host), port: port)
    }

    package var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
