#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A PostgreSQL server and database, from a `postgres://user:password@host:port/database`
/// URL (`postgresql://` too; port 5432 when absent; `?sslmode=require` for TLS, verified,
/// `disable` the default).
package struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var requireTLS: Bool

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    package init(url: String) throws(Invalid) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme,
            ["postgres", "postgresql"].contains(scheme.lowercased())
        else {
            throw Invalid(description: "\(Self.redacted(url)): not a postgres://user:password@host:port/database URL")
        }
        guard let host = parts.host, !host.isEmpty else {
            throw Invalid(description: "\(Self.redacted(url)): no host")
        }
        guard let user = parts.user, !user.isEmpty else {
            throw Invalid(description: "\(Self.redacted(url)): no user (postgres://user@host/database)")
        }
        let database = String(parts.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else {
            throw Invalid(description: "\(Self.redacted(url)): no database (postgres://user@host/database)")
        }
        var requireTLS = false
        for item in parts.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("sslmode", "disable"): requireTLS = false
            case ("sslmode", "require"), ("sslmode", "verify-full"): requireTLS = true
            case ("sslmode", let mode):
                throw Invalid(description: "\(Self.redacted(url)): sslmode=\(mode): expected disable or require")
            case (let name, _):
                throw Invalid(description: "\(Self.redacted(url)): unknown parameter \(name) (only sslmode)")
            }
        }
        self.host = host
        self.port = parts.port ?? 5432
        self.user = user
        self.password = parts.password
        self.database = database
        self.requireTLS = requireTLS
    }

    /// The URL without its password: what logs and errors show.
    package var description: String {
        "postgres://\(user)@\(host):\(port)/\(database)\(requireTLS ? "?sslmode=require" : "")"
    }

    static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = "***"
        return parts.string ?? "(a URL)"
    }
}
