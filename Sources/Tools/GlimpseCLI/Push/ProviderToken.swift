import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON

/// An APNs provider token: a JWT signed ES256 with the team's key (an AuthKey .p8 file),
/// header `alg` and `kid`, claims `iss` (the team id) and `iat` (seconds since 1970).
package enum ProviderToken {
    /// `--key TEAMID:KEYID:path.p8`.
    package struct KeySpec: Hashable, Sendable {
        package var teamID: String
        package var keyID: String
        package var path: String

        package init(parsing text: String) throws(CLIFailure) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
                throw .usage("--key: expected TEAMID:KEYID:path.p8, got \"\(text)\"")
            }
            teamID = parts[0]
            keyID = parts[1]
            path = parts[2]
        }
    }

    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The signed token for `pem` (PKCS#8 "PRIVATE KEY" as Apple ships it, or SEC1 "EC
    /// PRIVATE KEY").
    package static func make(
        teamID: String, keyID: String, privateKeyPEM pem: String, issuedAt: Int64
    ) throws(Failure) -> String {
        let key: P256.Signing.PrivateKey
        do { key = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
            throw Failure(description: "not a P-256 private key in PEM (an AuthKey .p8 file): \(error)")
        }
        let header = JSONValue.object([JSONMember("alg", "ES256"), JSONMember("kid", .string(keyID))])
        let claims = JSONValue.object([
            JSONMember("iss", .string(teamID)), JSONMember("iat", .number(String(issuedAt))),
        ])
        let signingInput = Base64Text.encodeURL(header.serialized()) + "." + Base64Text.encodeURL(claims.serialized())
        let signature: P256.Signing.ECDSASignature
        do { signature = try key.signature(for: Data(signingInput.utf8)) } catch {
            throw Failure(description: "signing failed: \(error)")
        }
        return signingInput + "." + Base64Text.encodeURL(Array(signature.rawRepresentation))
    }
}
