import Foundation
import HTTP2
import SwiftASN1
import Testing
import X509

/// The local CA: made once, reused, remade when it cannot be used.
@Suite struct CertificateTests {
    @Test func madeOnFirstUseAndReusedAfter() throws {
        let directory = temporaryDirectory("ca").path
        let first = try LocalCertificateAuthority.prepare(in: directory)
        #expect(first.caCertificate == directory + "/ca.pem")
        #expect(first.server.certificateChain == directory + "/server.pem")
        #expect(first.server.privateKey == directory + "/server-key.pem")
        let contents = try [first.caCertificate, first.server.certificateChain, first.server.privateKey].map {
            try String(contentsOfFile: $0, encoding: .utf8)
        }
        let again = try LocalCertificateAuthority.prepare(in: directory)
        #expect(again == first)
        let reread = try [again.caCertificate, again.server.certificateChain, again.server.privateKey].map {
            try String(contentsOfFile: $0, encoding: .utf8)
        }
        #expect(reread == contents)  // reused, not made again

        let keyMode =
            try FileManager.default.attributesOfItem(atPath: first.server.privateKey)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
    }

    @Test func theServerCertificateIsForLocalhostAndSignedByTheCA() throws {
        let files = try LocalCertificateAuthority.prepare(in: temporaryDirectory("ca").path)
        let ca = try Certificate(pemEncoded: try String(contentsOfFile: files.caCertificate, encoding: .utf8))
        let server = try Certificate(
            pemEncoded: try String(contentsOfFile: files.server.certificateChain, encoding: .utf8))
        let key = try Certificate.PrivateKey(
            pemEncoded: try String(contentsOfFile: files.server.privateKey, encoding: .utf8))

        #expect(try ca.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try server.extensions.basicConstraints == .notCertificateAuthority)
        #expect(server.issuer == ca.subject)
        #expect(ca.publicKey.isValidSignature(server.signature, for: server))
        #expect(key.publicKey == server.publicKey)
        #expect(try server.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        let names = try #require(try server.extensions.subjectAlternativeNames)
        #expect(
            Array(names) == [
                .dnsName("localhost"),
                .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
            ])
        #expect(server.notValidAfter.timeIntervalSinceNow > 300 * 24 * 3600)
    }

    @Test func aDamagedOrMismatchedSetIsMadeAnew() throws {
        let directory = temporaryDirectory("ca").path
        let first = try LocalCertificateAuthority.prepare(in: directory)
        let firstCA = try String(contentsOfFile: first.caCertificate, encoding: .utf8)

        // A key that is not the certificate's: the whole set is made again.
        let other = try LocalCertificateAuthority.prepare(in: temporaryDirectory("ca").path)
        try FileManager.default.removeItem(atPath: first.server.privateKey)
        try FileManager.default.copyItem(atPath: other.server.privateKey, toPath: first.server.privateKey)
        _ = try LocalCertificateAuthority.prepare(in: directory)
        #expect(try String(contentsOfFile: first.caCertificate, encoding: .utf8) != firstCA)

        // A missing file, likewise.
        let secondCA = try String(contentsOfFile: first.caCertificate, encoding: .utf8)
        try FileManager.default.removeItem(atPath: first.server.certificateChain)
        _ = try LocalCertificateAuthority.prepare(in: directory)
        #expect(try String(contentsOfFile: first.caCertificate, encoding: .utf8) != secondCA)
        #expect(FileManager.default.fileExists(atPath: first.server.certificateChain))
    }

    @Test func aSetAboutToExpireIsMadeAnew() throws {
        let directory = temporaryDirectory("ca").path
        let made = try LocalCertificateAuthority.prepare(
            in: directory, now: Date(timeIntervalSinceNow: -392 * 24 * 3600))
        let old = try String(contentsOfFile: made.server.certificateChain, encoding: .utf8)
        _ = try LocalCertificateAuthority.prepare(in: directory)  // 5 days left of 397: too few
        #expect(try String(contentsOfFile: made.server.certificateChain, encoding: .utf8) != old)
    }
}
