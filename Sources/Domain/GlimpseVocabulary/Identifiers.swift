#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An identifier that is a name: a bundle id, an App Group. One shape for all of them.
public protocol NameIdentifier: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible where RawValue == String
{
    init(rawValue: String)
}

extension NameIdentifier {
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// An installed app, by bundle identifier (`net.insoc.rtlair`); also the APNs topic's prefix.
public struct AppID: NameIdentifier {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// An App Group (`group.net.insoc.rtlair`): a store shared by the apps that belong to it.
public struct GroupID: NameIdentifier {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// One widget on the device, by the id glimpse-timeline gave it when it was placed.
public struct PlacementID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByIntegerLiteral, CustomStringConvertible
{
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt64) { rawValue = value }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "P\(rawValue)" }
}

/// A Live Activity's identity, a UUID as ActivityKit's `Activity.id` is.
public struct ActivityID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let uuid: UUID
    public init(_ uuid: UUID) { self.uuid = uuid }
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    public var description: String { uuid.uuidString }
    public static func < (a: Self, b: Self) -> Bool { a.uuid.uuidString < b.uuid.uuidString }
}

/// An APNs device token (a Live Activity's update token or a push-to-start token), as lowercase hex.
public struct PushToken: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hex: String
    /// Accepts hex in either case; nil when not a non-empty, even-length hex string.
    public init?(hex: String) {
        guard !hex.isEmpty, hex.utf8.count % 2 == 0, hex.utf8.allSatisfy(\.isHexDigit) else { return nil }
        self.hex = hex.lowercased()
    }
    public init(bytes: [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        hex = String(decoding: out, as: UTF8.self)
    }
    public var description: String { hex }
    public static func < (a: Self, b: Self) -> Bool { a.hex < b.hex }}

extension PushToken: StringCoded {
    public var codedString: String { hex }
    public init?(codedString: String) { self.init(hex: codedString) }
}

/// A broadcast channel (iOS 18 `PushType.channel`), base64 as APNs gives it.
public struct ChannelID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let base64: String
    public init(_ base64: String) { self.base64 = base64 }
    public var description: String { base64 }
    public static func < (a: Self, b: Self) -> Bool { a.base64 < b.base64 }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
