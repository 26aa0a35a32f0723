import GlimpseJSON

extension FuzzTarget {
    /// GlimpseJSON's parser as every JSON face uses it: bytes in; a value or a typed error
    /// out. A value writes back to text that parses to the same value and writes the same
    /// text again; an object's bytes pass `JSONObjectBytes` (the 4 KB rule's type) as they are.
    static let json = FuzzTarget(name: "json") { bytes in
        guard let value = try? JSONParser.parse(bytes) else { return }
        let text = value.serialized()
        let again: JSONValue
        do { again = try JSONParser.parse(text) } catch {
            finding("the parser refuses what the serializer wrote (\(error)): \(String(decoding: text, as: UTF8.self))")
        }
        expect(again == value, "parse(serialize(v)) != v for \(String(decoding: text, as: UTF8.self))")
        expect(again.serialized() == text, "serialize is not stable for \(String(decoding: text, as: UTF8.self))")
        if value.isObject {
            do {
                let object = try JSONObjectBytes(validating: bytes)
                expect(object.value == value, "JSONObjectBytes reads back another value")
            } catch {
                finding("JSONObjectBytes refuses an object the parser took: \(error)")
            }
            do {
                let compact = try JSONObjectBytes(value)
                expect(compact.bytes == text, "JSONObjectBytes(value) is not the serializer's text")
            } catch {
                finding("JSONObjectBytes(value) refuses a parsed object: \(error)")
            }
        }
    }
}
