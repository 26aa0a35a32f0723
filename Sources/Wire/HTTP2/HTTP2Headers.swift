/// Header fields in the order they came or go, as name/value pairs. Names on the wire are
/// lowercase (HTTP/2 requires it): a request's are as received, and a response's are
/// lowercased when sent. Pseudo-headers (`:method`, `:status` …) are never in here.
package struct HTTP2Headers: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    package struct Field: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    package init() {
        fields = []
    }

    package init(_ fields: [(name: String, value: String)]) {
        self.fields = fields.map { Field(name: $0.name, value: $0.value) }
    }

    package init(arrayLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    package var startIndex: Int { fields.startIndex }
    package var endIndex: Int { fields.endIndex }
    package subscript(position: Int) -> Field { fields[position] }

    /// The first value of `name` (compared without regard to ASCII case), or nil.
    package subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order (a header may come more than once).
    package func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    package mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Names as stored are compared to `other` case-insensitively (ASCII only, as HTTP field
    /// names are).
    private static func sameName(_ stored: String, _ other: String) -> Bool {
        stored.utf8.count == other.utf8.count
            && zip(stored.utf8, other.utf8).allSatisfy { lowercased($0) == lowercased($1) }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
