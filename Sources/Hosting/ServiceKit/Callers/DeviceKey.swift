#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import RPCCore

/// The secret a stack that listens beyond loopback asks of device-scope callers
/// (`--device-key FILE`, or `GLIMPSE_DEVICE_KEY`): the gateway, the CLI and scripts send
/// `authorization: Device <key>`, apps keep sending `authorization: Bearer <app token>`.
/// Without one (the default, for loopback) a call without a token is the device's.
///
/// Never printed: `description` says only that a key is set.
package struct DeviceKey: Sendable, Hashable, CustomStringConvertible {
    /// The `authorization` scheme of a device call.
    package static let scheme = "Device"
    /// Shortest and longest key, in characters (a header value must stay small).
    package static let lengths = 16...1024

    let secret: String

    /// `text` with the white space around it removed (a file usually ends in a newline):
    /// 16 to 1,024 visible ASCII characters, no spaces. nil otherwise.
    package init?(_ text: String) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard Self.lengths.contains(trimmed.utf8.count), trimmed.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return nil
        }
        secret = trimmed
    }

    /// The key in the file at `path`, or why there is none.
    package static func load(path: String) -> Result<DeviceKey, LoadFailure> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(.unreadable) }
        guard let text = String(bytes: data, encoding: .utf8), let key = DeviceKey(text) else {
            return .failure(.malformed)
        }
        return .success(key)
    }

    package enum LoadFailure: Error, Sendable, Hashable {
        case unreadable, malformed
    }

    /// A new key: 256 random bits, hex (what `glimpse device-key` writes).
    package static func generate() -> DeviceKey {
        DeviceKey(Caller.newAppToken())!
    }

    /// The file's text: the key and a newline.
    package var fileText: String { secret + "\n" }

    /// `authorization` for a device call.
    package var authorization: String { "\(Self.scheme) \(secret)" }

    /// Metadata that makes a call the device's (see `GRPCClient.adding(_:)`).
    package var metadata: Metadata {
        var metadata = Metadata()
        metadata.addString(authorization, forKey: "authorization")
        return metadata
    }

    /// Whether `presented` is this key, in time that does not depend on where they differ.
    package func matches(_ presented: some StringProtocol) -> Bool {
        let expected = Array(secret.utf8), given = Array(presented.utf8)
        var difference = UInt8(truncatingIfNeeded: expected.count ^ given.count)
        for index in 0..<expected.count {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    package var description: String { "DeviceKey(set)" }
}
