#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An activity's identity, a UUID as ActivityKit's `Activity.id` is.
public struct ActivityID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let uuid: UUID
    public init(_ uuid: UUID) { self.uuid = uuid }
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    public var description: String { uuid.uuidString }
    public static func < (a: Self, b: Self) -> Bool { a.uuid.uuidString < b.uuid.uuidString }
}

/// An installed app, named by its bundle identifier (the APNs topic's prefix).
public struct AppID: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let bundleID: String
    public init(_ bundleID: String) { self.bundleID = bundleID }
    public init(stringLiteral value: String) { self.bundleID = value }
    public var description: String { bundleID }
}

/// An APNs device token (update token or push-to-start token), as lowercase hex.
public struct PushToken: Sendable, Hashable, CustomStringConvertible {
    public let hex: String
    /// Accepts hex in either case; nil when not an even-length hex string.
    public init?(hex: String) {
        guard !hex.isEmpty, hex.utf8.count % 2 == 0, hex.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        self.hex = hex.lowercased()
    }
    public init(bytes: [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        self.hex = String(decoding: out, as: UTF8.self)
    }
    public var description: String { hex }
}

/// A broadcast channel (iOS 18 `PushType.channel`), base64 as APNs gives it.
public struct ChannelID: Sendable, Hashable, CustomStringConvertible {
    public let base64: String
    public init(_ base64: String) { self.base64 = base64 }
    public var description: String { base64 }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
