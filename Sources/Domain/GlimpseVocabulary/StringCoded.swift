/// A value coded as its string form and checked when read back, as when it is made from
/// text: a coder never hands out a token, hash or name its own initializer would refuse.
package protocol StringCoded: Codable {
    var codedString: String { get }
    init?(codedString: String)
}

extension StringCoded {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(codedString: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a \(Self.self): \(text)"))
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(codedString)
    }
}
