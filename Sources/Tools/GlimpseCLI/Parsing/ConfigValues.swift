package import GlimpseMessages

/// `--config key=value`: a widget configuration parameter. The value's type is read from
/// its text (`true`/`false` a bool, `42` an int, `2.5` a double, an ISO 8601 date with a
/// time a date, anything else a string) unless the key names it: `key:string=42`,
/// `key:int=…`, `key:double=…`, `key:bool=…`, `key:date=…`, `key:bytes=<base64>`.
package enum ConfigValue {
    package struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        package var text: String
        package var reason: String
        package var description: String { "invalid --config \"\(text)\": \(reason)" }
    }

    package static func parse(_ text: String) throws(Invalid) -> (key: String, value: GlimpseWidgetV1.ParameterValue) {
        guard let equals = text.firstIndex(of: "=") else {
            throw Invalid(text: text, reason: "expected key=value (or key:type=value)")
        }
        var key = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        var type: String?
        if let colon = key.lastIndex(of: ":") {
            type = String(key[key.index(after: colon)...]).lowercased()
            key = String(key[..<colon])
        }
        guard !key.isEmpty else { throw Invalid(text: text, reason: "the key is empty") }
        var value = GlimpseWidgetV1.ParameterValue()
        switch type {
        case nil:
            value.kind = infer(raw)
        case "string", "str":
            value.kind = .stringValue(raw)
        case "int":
            guard let n = Int64(raw) else { throw Invalid(text: text, reason: "\"\(raw)\" is not an int") }
            value.kind = .intValue(n)
        case "double", "float", "number":
            guard let x = Double(raw), x.isFinite else {
                throw Invalid(text: text, reason: "\"\(raw)\" is not a double")
            }
            value.kind = .doubleValue(x)
        case "bool":
            switch raw.lowercased() {
            case "true", "yes", "on", "1": value.kind = .boolValue(true)
            case "false", "no", "off", "0": value.kind = .boolValue(false)
            default: throw Invalid(text: text, reason: "\"\(raw)\" is not a bool (true or false)")
            }
        case "date":
            do { value.kind = .dateValue(try ISO8601Text.parse(raw)) } catch {
                throw Invalid(text: text, reason: error.description)
            }
        case "bytes":
            guard let bytes = Base64Text.decode(raw) else {
                throw Invalid(text: text, reason: "\"\(raw)\" is not base64")
            }
            value.kind = .bytesValue(bytes)
        case let other?:
            throw Invalid(
                text: text, reason: "unknown type \"\(other)\"; expected string, int, double, bool, date or bytes")
        }
        return (key, value)
    }

    static func infer(_ raw: String) -> GlimpseWidgetV1.ParameterValue.Kind {
        if raw == "true" { return .boolValue(true) }
        if raw == "false" { return .boolValue(false) }
        if let n = Int64(raw) { return .intValue(n) }
        if raw.contains(where: { $0.isNumber }), let x = Double(raw), x.isFinite,
            raw.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E" })
        {
            return .doubleValue(x)
        }
        if raw.count > 10, raw.contains("T"), let date = try? ISO8601Text.parse(raw) { return .dateValue(date) }
        return .stringValue(raw)
    }

    /// A value as `--config` would take it back (for listings).
    package static func format(_ value: GlimpseWidgetV1.ParameterValue) -> String {
        switch value.kind {
        case .stringValue(let s)?: s
        case .intValue(let n)?: String(n)
        case .doubleValue(let x)?: String(x)
        case .boolValue(let b)?: b ? "true" : "false"
        case .dateValue(let t)?: ISO8601Text.format(t)
        case .bytesValue(let b)?: Base64Text.encode(b)
        case nil: "null"
        }
    }

    /// `city=Paris, units=metric` in key order.
    package static func format(_ configuration: [String: GlimpseWidgetV1.ParameterValue]) -> String {
        configuration.keys.sorted().map { "\($0)=\(format(configuration[$0]!))" }.joined(separator: ", ")
    }
}

/// Standard base64 (and URL-safe, padded or not, on the way in).
enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : 0x3D)
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : 0x3D)
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func encodeURL(_ bytes: [UInt8]) -> String {
        var text = encode(bytes)
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A: values.append(byte - 0x41)
            case 0x61...0x7A: values.append(byte - 0x61 + 26)
            case 0x30...0x39: values.append(byte - 0x30 + 52)
            case 0x2B, 0x2D: values.append(62)
            case 0x2F, 0x5F: values.append(63)
            case 0x3D: continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)].map { $0 } + [0, 0, 0]
            out.append(chunk[0] << 2 | chunk[1] >> 4)
            if i + 2 < values.count { out.append(chunk[1] << 4 | chunk[2] >> 2) }
            if i + 3 < values.count { out.append(chunk[2] << 6 | chunk[3]) }
            i += 4
        }
        return out
    }
}
