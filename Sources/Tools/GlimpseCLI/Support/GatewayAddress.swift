/// A `host:port` to connect to (`[::1]:7700` for IPv6 literals).
package struct HostPort: Hashable, Sendable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`; `what` names the option in the error (e.g. "--gateway").
    package init(parsing text: String, what: String) throws(CLIFailure) {
        let trimmed = text.trimmingCharacters(in: " ")
        guard let colon = trimmed.lastIndex(of: ":"),
            let port = Int(trimmed[trimmed.index(after: colon)...]), (1...65535).contains(port)
        else {
            throw .usage("\(what): expected host:port, got \"\(text)\"")
        }
        var host = Substring(trimmed[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw .usage("\(what): expected host:port, got \"\(text)\"") }
        self.host = String(host)
        self.port = port
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
