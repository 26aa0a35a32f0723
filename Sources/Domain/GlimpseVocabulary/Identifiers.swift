#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// An identifier that is a name: a bundle id, an App Group. One shape for all of them.
package protocol NameIdentifier: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension NameIdentifier {
    package init(_ rawValue: String) { self.init(rawValue: rawValue) }
    package init(stringLiteral value: String) { self.init(rawValue: value) }
    package var description: String { rawValue }
    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// An installed app, by bundle identifier (`net.insoc.rtlair`); also the APNs topic's prefix.
package struct AppID: NameIdentifier {
    package var rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}

/// An App Group (`group.net.insoc.rtlair`): a store shared by the apps that belong to it.
package struct GroupID: NameIdentifier {
    package var rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}

/// One widget on the device, by the id glimpse-timeline gave it when it was placed.
package struct PlacementID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByIntegerLiteral, CustomStringConvertible
{
    package var rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    package init(_ rawValue: UInt64) { self.rawValue = rawValue }
    package init(integerLiteral value: UInt64) { rawValue = value }
    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    package var description: String { "P\(rawValue)" }
}

/// A Live Activity's identity, a UUID as ActivityKit's `Activity.id` is.
package struct ActivityID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    package let uuid: UUID
    package init(_ uuid: UUID) { self.uuid = uuid }
    package init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    /// `uuid.uuidString`, written directly (every push's log record and outcome names its
    /// activity, and Foundation's goes through snprintf).
    package var description: String { uuid.hyphenatedHex(uppercase: true) }

    /// The order of `description`s (hex keeps the bytes' order; the dashes stand at the same
    /// places in every one), without writing them.
    package static func < (a: Self, b: Self) -> Bool {
        withUnsafeBytes(of: a.uuid.uuid) { left in
            withUnsafeBytes(of: b.uuid.uuid) { right in left.lexicographicallyPrecedes(right) }
        }
    }
}

/// An APNs device token (a Live Activity's update token or a push-to-start token), as lowercase hex.
package struct PushToken: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let hex: String
    /// Accepts hex in either case; nil when not a non-empty, even-length hex string.
    package init?(hex: String) {
        guard !hex.isEmpty, hex.utf8.count % 2 == 0, hex.utf8.allSatisfy(\.isHexDigit) else { return nil }
        self.hex = hex.lowercased()
    }
    package init(bytes: [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        hex = String(decoding: out, as: UTF8.self)
    }
    package var description: String { hex }
    package static func < (a: Self, b: Self) -> Bool { a.hex < b.hex }
}

extension PushToken: StringCoded {
    package var codedString: String { hex }
    package init?(codedString: String) { self.init(hex: codedString) }
}

/// A broadcast channel (iOS 18 `PushType.channel`), base64 as APNs gives it.
package struct ChannelID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    package let base64: String
    package init(_ base64: String) { self.base64 = base64 }
    package var description: String { base64 }
    package static func < (a: Self, b: Self) -> Bool { a.base64 < b.base64 }
}

extension UInt8 {
    /// 0-9, A-F, a-f.
    package var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

extension UUID {
    /// `uuidString` (8-4-4-4-12 hex), in either case, without Foundation's snprintf.
    package func hyphenatedHex(uppercase: Bool) -> String {
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                digits.withUTF8Buffer { hex in
                    var at = 0
                    for (index, byte) in bytes.enumerated() {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            out[at] = UInt8(ascii: "-")
                            at += 1
                        }
                        out[at] = hex[Int(byte >> 4)]
                        out[at + 1] = hex[Int(byte & 0xF)]
                        at += 2
                    }
                }
                return 36
            }
        }
    }
}
