import ArgumentParser
import Foundation
import RPCCore
import ServiceKit
import Testing

/// The device key (`--device-key FILE`): what a key file must hold, how a service reads it
/// (flag, then GLIMPSE_DEVICE_KEY, failing fast), and what the gate lets through.
@Suite("Device key")
struct DeviceKeyTests {
    static let key = DeviceKey("0123456789abcdef0123456789abcdef")!

    func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("device-key-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("16 to 1,024 visible ASCII characters, white space around them dropped; nothing else")
    func keys() {
        #expect(DeviceKey("  0123456789abcdef\n") != nil)
        #expect(DeviceKey("short") == nil)
        #expect(DeviceKey("0123456789 abcdef") == nil)
        #expect(DeviceKey(String(repeating: "k", count: 1025)) == nil)
        #expect(DeviceKey("0123456789abcdéf") == nil)
        #expect(Self.key.matches("0123456789abcdef0123456789abcdef"))
        #expect(!Self.key.matches("0123456789abcdef0123456789abcdeF"))
        #expect(!Self.key.matches("0123456789abcdef"))
        #expect("\(Self.key)" == "DeviceKey(set)")  // never printed
        #expect(DeviceKey.generate() != DeviceKey.generate())
    }

    @Test("--device-key, then GLIMPSE_DEVICE_KEY; an unreadable or malformed file stops the service with the reason")
    func options() throws {
        let good = try file("0123456789abcdef0123456789abcdef\n")
        #expect(try ServiceOptions.parse(["--device-key", good]).resolve(service: "timeline").deviceKey == Self.key)
        #expect(
            try ServiceOptions.parse([]).resolve(service: "timeline", environment: ["GLIMPSE_DEVICE_KEY": good])
                .deviceKey
                == Self.key)
        #expect(try ServiceOptions.parse([]).resolve(service: "timeline", environment: [:]).deviceKey == nil)
        #expect(throws: ConfigError("--device-key: cannot read /nonexistent/key (from GLIMPSE_DEVICE_KEY)")) {
            try ServiceOptions.parse([]).resolve(
                service: "timeline", environment: ["GLIMPSE_DEVICE_KEY": "/nonexistent/key"])
        }
        let short = try file("abc")
        let error = #expect(throws: ConfigError.self) {
            try ServiceOptions.parse(["--device-key", short]).resolve(service: "t")
        }
        #expect(error?.message.hasPrefix("--device-key: \(short) holds no device key (from --device-key)") == true)
    }

    @Test(
        "the gate: apps with their token and the device with its key pass; no key, a wrong one, a stray scheme do not")
    func gate() {
        func refusal(
            _ authorization: [String], path: String = "/glimpse.timeline.v1.TimelineService/Place"
        ) -> RPCError? {
            var metadata = Metadata()
            for value in authorization { metadata.addString(value, forKey: "authorization") }
            return DeviceKeyGate.refusal(path: path, metadata: metadata, key: Self.key)
        }
        #expect(refusal(["Bearer an-app-token"]) == nil)
        #expect(refusal(["Device 0123456789abcdef0123456789abcdef"]) == nil)
        #expect(refusal(["device 0123456789abcdef0123456789abcdef"]) == nil)  // schemes are case-insensitive
        #expect(refusal([], path: "/grpc.health.v1.Health/Check") == nil)
        #expect(refusal([], path: "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo") == nil)
        #expect(refusal([])?.code == .unauthenticated)
        #expect(refusal([])?.message.contains("authorization: Device <key>") == true)
        #expect(refusal(["Device wrong-key-wrong-key-wrong"])?.message.contains("does not match") == true)
        #expect(refusal(["Basic dXNlcjpwYXNz"])?.code == .unauthenticated)
        #expect(refusal(["Bearer a", "Bearer b"])?.message.contains("given 2 times") == true)
    }
}
