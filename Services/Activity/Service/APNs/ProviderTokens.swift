import Crypto
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseJSON
import Synchronization

/// APNs token authentication (spec §9): a JWT signed ES256 with a team's key, header `alg`
/// and `kid`, claims `iss` (the team id) and `iat`. Checked against the keys registered
/// per team, on the service's clock, with Apple's rules: older than an hour →
/// ExpiredProviderToken; a new token on a connection sooner than the refresh interval
/// after the last → TooManyProviderTokenUpdates; a connection stays with the team of its
/// first push (another → UnrelatedKeyIdInToken). `iat` may be an integer, a float or a
/// string of seconds, as clients differ.
package final class ProviderTokens: Sendable {
    package struct Key: Sendable {
        package var teamID: String
        package var keyID: String
        let publicKey: P256.Signing.PublicKey

        /// From a PEM public key, or the team's PEM private key (an AuthKey .p8 file).
        package init(teamID: String, keyID: String, pem: String) throws {
            self.teamID = teamID
            self.keyID = keyID
            if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
                publicKey = key
            } else {
                publicKey = try P256.Signing.PrivateKey(pemRepresentation: pem).publicKey
            }
        }
    }

    package struct Settings: Sendable {
        /// A token older than this is ExpiredProviderToken (Apple: one hour).
        package var maximumAge: TimeInterval = 3600
        /// A connection may change its token no sooner than this after the last (Apple:
        /// 20 minutes); 0 turns the rule off.
        package var minimumRefreshInterval: TimeInterval = 1200
        /// How far ahead of the service's clock `iat` may be (clients' clocks drift).
        package var allowedClockSkew: TimeInterval = 300

        package init() {}
    }

    /// A refusal: status 403 or 429 and Apple's reason.
    package struct Refusal: Error, Sendable, Hashable {
        package var status: Int32
        package var reason: String
    }

    private struct Connection {
        var teamID: String
        var token: String
        var issuedAt: Double
    }

    private let keys: [String: Key]
    package let settings: Settings
    private let connections = Mutex<[String: Connection]>([:])

    package init(keys: [Key], settings: Settings = Settings()) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last })
        self.settings = settings
    }

    package var isEmpty: Bool { keys.isEmpty }

    /// Checks the `authorization` header of a request on `connection` at `now`.
    package func check(authorization: String?, connection: String, now: Date) -> Refusal? {
        guard let authorization, !authorization.isEmpty else {
            return Refusal(status: 403, reason: "MissingProviderToken")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return Refusal(status: 403, reason: "InvalidProviderToken")
        }
        let token = String(parts[1])
        let known = connections.withLock { $0[connection] }
        if let known, known.token == token {
            // The same token again: only its age can have changed.
            return now.timeIntervalSince1970 - known.issuedAt > settings.maximumAge
                ? Refusal(status: 403, reason: "ExpiredProviderToken") : nil
        }
        let claims: (keyID: String, teamID: String, issuedAt: Double)
        switch verify(token) {
        case .success(let verified): claims = verified
        case .failure(let refusal): return refusal
        }
        let age = now.timeIntervalSince1970 - claims.issuedAt
        guard age <= settings.maximumAge else { return Refusal(status: 403, reason: "ExpiredProviderToken") }
        guard age >= -settings.allowedClockSkew else { return Refusal(status: 403, reason: "InvalidProviderToken") }
        // Read and written under one lock: pushes that arrive at once with the same new
        // token all verify it before any stores it, and all but the first find it stored.
        return connections.withLock { table in
            if let known = table[connection] {
                if known.token == token { return nil }
                guard known.teamID == claims.teamID else {
                    return Refusal(status: 403, reason: "UnrelatedKeyIdInToken")
                }
                if settings.minimumRefreshInterval > 0,
                    claims.issuedAt - known.issuedAt < settings.minimumRefreshInterval
                {
                    return Refusal(status: 429, reason: "TooManyProviderTokenUpdates")
                }
            }
            if table.count >= 100_000, table[connection] == nil { table.removeAll(keepingCapacity: true) }
            table[connection] = Connection(teamID: claims.teamID, token: token, issuedAt: claims.issuedAt)
            return nil
        }
    }

    /// The connection closed: forget its token.
    package func forget(connection: String) {
        _ = connections.withLock { $0.removeValue(forKey: connection) }
    }

    private func verify(_ token: String) -> Result<(keyID: String, teamID: String, issuedAt: Double), Refusal> {
        let invalid = Refusal(status: 403, reason: "InvalidProviderToken")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Self.base64URL(parts[0]), let claimBytes = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2]),
            let header = try? JSONParser.parse(headerBytes), let claims = try? JSONParser.parse(claimBytes)
        else { return .failure(invalid) }
        guard header["alg"]?.stringValue == "ES256", let keyID = header["kid"]?.stringValue,
            let teamID = claims["iss"]?.stringValue
        else { return .failure(invalid) }
        let issuedAt: Double? =
            switch claims["iat"] {
            case .number(let literal)?: Double(literal)
            case .string(let text)?: Double(text)
            default: nil
            }
        guard let issuedAt, issuedAt.isFinite else { return .failure(invalid) }
        guard let key = keys[keyID], key.teamID == teamID else { return .failure(invalid) }
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        let ecdsa =
            (try? P256.Signing.ECDSASignature(rawRepresentation: signature))
            ?? (try? P256.Signing.ECDSASignature(derRepresentation: signature))
        guard let ecdsa, key.publicKey.isValidSignature(ecdsa, for: signed) else { return .failure(invalid) }
        return .success((keyID, teamID, issuedAt))
    }

    static func base64URL(_ text: Substring) -> [UInt8]? {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
