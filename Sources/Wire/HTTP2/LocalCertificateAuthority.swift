import Crypto
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import SwiftASN1
import X509

/// TLS certificates for a server on this machine: a self-signed CA and a server
/// certificate it signed for `localhost`, `127.0.0.1` and `::1`, with P-256 keys.
///
/// Made once in a directory and reused after (also by other processes: the directory is
/// locked while it is checked or written). Files, all PEM: `ca.pem` (what clients trust:
/// `curl --cacert ca.pem`), `server.pem`, `server-key.pem` (mode 0600). The CA's key is
/// used once and never written, so that CA signs nothing else. A set that is incomplete,
/// unreadable, inconsistent or within a week of expiring is made anew.
package enum LocalCertificateAuthority {
    package struct Files: Sendable, Hashable {
        /// `ca.pem`: the certificate clients must trust.
        package var caCertificate: String
        /// `server.pem` and `server-key.pem`, for `HTTP2Listener.tls`.
        package var server: TLSCertificateFiles
    }

    /// The certificates in `directory` (created, mode 0700, if missing), made on first use.
    package static func prepare(in directory: String, now: Date = Date()) throws -> Files {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // One made by an older version may be open to all. Not ours to change (another
        // owner's): the key file itself stays 0600.
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        let files = Files(
            caCertificate: directory + "/ca.pem",
            server: TLSCertificateFiles(
                certificateChain: directory + "/server.pem", privateKey: directory + "/server-key.pem"))
        return try PrivateFiles.withLock(directory + "/.lock") {
            if (try? isUsable(files, at: now)) == true { return files }
            try make(files, now: now)
            return files
        }
    }

    static let serverNames: [GeneralName] = [
        .dnsName("localhost"),
        .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
        .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
    ]

    private static let day: TimeInterval = 24 * 60 * 60

    /// True if the three files hold a CA, a server certificate it signed, valid for at
    /// least another week, and that certificate's key.
    private static func isUsable(_ files: Files, at now: Date) throws -> Bool {
        let ca = try Certificate(pemEncoded: try PrivateFiles.read(files.caCertificate))
        let server = try Certificate(pemEncoded: try PrivateFiles.read(files.server.certificateChain))
        let key = try Certificate.PrivateKey(pemEncoded: try PrivateFiles.read(files.server.privateKey))
        let names = try server.extensions.subjectAlternativeNames.map { Array($0) }
        return server.issuer == ca.subject && ca.publicKey.isValidSignature(server.signature, for: server)
            && key.publicKey == server.publicKey
            && server.notValidAfter > now + 7 * day && ca.notValidAfter > now + 7 * day
            && names == serverNames
    }

    private static func make(_ files: Files, now: Date) throws {
        let caKey = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let caName = try DistinguishedName {
            OrganizationName("Glimpse")
            CommonName("Glimpse local CA")
        }
        let caKeyID = SubjectKeyIdentifier(hash: caKey.publicKey)
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: caKey.publicKey,
            notValidBefore: now - 3600, notValidAfter: now + 3650 * day,
            issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                caKeyID
            },
            issuerPrivateKey: caKey)

        let serverKey = P256.Signing.PrivateKey()
        let serverPublicKey = Certificate.PrivateKey(serverKey).publicKey
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: serverPublicKey,
            // At most 398 days: what Apple's and browsers' clients accept for a TLS server.
            notValidBefore: now - 3600, notValidAfter: now + 397 * day,
            issuer: caName, subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(serverNames)
                SubjectKeyIdentifier(hash: serverPublicKey)
                AuthorityKeyIdentifier(keyIdentifier: caKeyID.keyIdentifier)
            },
            issuerPrivateKey: caKey)

        try PrivateFiles.write(serverKey.pemRepresentation, to: files.server.privateKey, mode: 0o600)
        try PrivateFiles.write(try server.serializeAsPEM().pemString, to: files.server.certificateChain, mode: 0o644)
        try PrivateFiles.write(try ca.serializeAsPEM().pemString, to: files.caCertificate, mode: 0o644)
    }
}
