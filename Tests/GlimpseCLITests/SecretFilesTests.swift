import Foundation
@testable import GlimpseCLI
import Testing

/// What the CLI writes that is a secret — the demo APNs signing key of `glimpse up`, the apps'
/// token files — is 0600 from its first byte, in a 0700 folder.
@Suite("Secret files: 0600 in 0700 folders")
struct SecretFilesTests {
    func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cli-secrets-\(UUID().uuidString)").path
    }

    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("glimpse up's demo signing key is 0600; one an older glimpse wrote 0644 is closed")
    func demoSigningKey() throws {
        let folder = scratch() + "/apns"
        try Files.makePrivateDirectory(folder)
        #expect(try mode(folder) == 0o700)
        let key = try Up.demoSigningKey(in: folder)
        #expect(try mode(key.path) == 0o600)
        let pem = try String(contentsOfFile: key.path, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
        #expect(try Up.demoSigningKey(in: folder).path == key.path)
        #expect(try mode(key.path) == 0o600)
        #expect(try String(contentsOfFile: key.path, encoding: .utf8) == pem)  // kept
    }

    @Test("a token folder an older glimpse made 0755 is closed; token files are written 0600")
    func tokens() throws {
        let folder = scratch() + "/tokens"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Files.makePrivateDirectory(folder)
        #expect(try mode(folder) == 0o700)
        try Files.writeSecret("token", to: folder + "/pizza.token")
        #expect(try mode(folder + "/pizza.token") == 0o600)
    }
}
