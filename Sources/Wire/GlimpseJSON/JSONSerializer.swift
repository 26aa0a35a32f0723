extension JSONValue {
    /// Compact UTF-8 JSON: no whitespace, members in their order (duplicates included),
    /// numbers as their literal, strings as raw UTF-8 with only `"`, `\` and U+0000...U+001F
    /// escaped (`\b \t \n \f \r` where JSON has a short form, else lowercase `\u00xx`;
    /// `/` is not escaped). This is the encoding whose length Glimpse measures against the
    /// 4 KB content-state limit (spec §4).
    ///
    /// For every value `JSONParser` returns, `JSONParser.parse(v.serialized()) == v` and
    /// serializing again gives the same bytes; input already in this form comes back byte
    /// for byte. A value built in code gives valid JSON only if its `.number` literals
    /// follow the JSON grammar; one nested deeper than `JSONParser.maximumDepth` is written
    /// but will not parse back (`JSONObjectBytes.init(_:)` checks both).
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(into: &out)
        return out
    }

    /// Recursion follows the value's nesting: at most `JSONParser.maximumDepth` for parsed values.
    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(0x5C); out.append(byte)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex.utf8Start[Int(byte >> 4)])
                out.append(hex.utf8Start[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
