import Foundation
@testable import GlimpseCLI
import Testing

/// What the CLI writes that is a secret — the demo APNs signing key of `glimpse up`, the apps'
/// token files, a device key — is 0600 from its first byte, in a 0700 folder.
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
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Files.makePrivateDirectory(folder)
        #expect(try mode(folder) == 0o700)
        try Files.writeSecret("token", to: folder + "/pizza.token")
        #expect(try mode(folder + "/pizza.token") == 0o600)
    }

    @Test("glimpse device-key: a new key 0600 in a folder made 0700; kept when there; refused over something else")
    func deviceKey() async throws {
        let path = scratch() + "/keys/device-key"
        func run(_ arguments: [String]) async -> Int32 {
            await GlimpseTool.run(arguments: arguments, output: CapturedOutput(), errorOutput: CapturedOutput())
        }
        #expect(await run(["device-key", path]) == 0)
        #expect(try mode(path) == 0o600)
        #expect(try mode((path as NSString).deletingLastPathComponent) == 0o700)
        let key = try String(contentsOfFile: path, encoding: .utf8)
        #expect(key.count == 65)  // 64 hex digits and a newline
        #expect(await run(["device-key", path]) == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == key)
        try "not a key".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await run(["device-key", path]) == 1)
    }
}
