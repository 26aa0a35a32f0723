import GlimpseMessages

extension FuzzTarget {
    /// Decoding of every message a port accepts (`AcceptedMessages`), as protobuf (the
    /// generated protobuf-c unpack and the lift into Swift values) or as proto3 JSON (the
    /// HTTP/JSON face), then the mapping to the services' values (`ProtoValues`).
    ///
    /// Input: byte 0 picks the message type (its index in `AcceptedMessages.types`), byte 1
    /// the encoding (bit 0: JSON; bit 1: JSON ignoring unknown fields); the rest is the message.
    /// A decoded message encodes again, and decoding that gives the same bytes once more.
    static let proto = FuzzTarget(name: "proto") { bytes in
        guard bytes.count >= 2 else { return }
        let type = AcceptedMessages.types[Int(bytes[0]) % AcceptedMessages.types.count]
        let payload = Array(bytes[2...])
        if bytes[1] & 1 == 0 {
            ProtoRoundTrip.binary(type, payload)
        } else {
            ProtoRoundTrip.json(type, payload, ignoringUnknownFields: bytes[1] & 2 != 0)
        }
    }
}

/// The round trips of one message type (a generic function opens the existential).
enum ProtoRoundTrip {
    static func binary<M: ProtoJSONMessage>(_ type: M.Type, _ payload: [UInt8]) {
        guard let message = try? M(serializedBytes: payload) else { return }
        let encoded = encode(message, "a decoded message")
        let again: M
        do { again = try M(serializedBytes: encoded) } catch {
            finding("\(M.protoMessageName): its own encoding does not decode: \(error)")
        }
        expect(
            encode(again, "the decoded re-encoding") == encoded,
            "\(M.protoMessageName): protobuf round trip is not stable")
        // What the HTTP/JSON face answers with the same message reads back as the same message.
        let json = message.jsonBytes()
        do {
            let fromJSON = try M(jsonBytes: json)
            expect(
                encode(fromJSON, "the JSON round trip") == encoded,
                "\(M.protoMessageName): protobuf -> JSON -> protobuf changes it: \(String(decoding: json, as: UTF8.self))"
            )
        } catch  where outOfRangeWellKnown(error) {
            // Protobuf carries any seconds; proto3 JSON reads a Timestamp in years 1...9999 and
            // a Duration within ±10,000 years only. The writer writes such a value anyway
            // (ProtoJSONWellKnown) and the reader refuses it with a clear error; the services
            // refuse it before it could reach an answer (e.g. a provider's relevance duration).
        } catch {
            finding(
                "\(M.protoMessageName): its own JSON does not decode (\(error)): \(String(decoding: json, as: UTF8.self))"
            )
        }
        ProtoValues.map(message)
    }

    /// The JSON reader's refusal of a Timestamp or Duration outside proto3 JSON's range.
    private static func outOfRangeWellKnown(_ error: ProtoJSONError) -> Bool {
        error.reason.hasSuffix(
            "is not an RFC 3339 timestamp between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z")
            || error.reason.hasSuffix("within ±315576000000s)")
    }

    static func json<M: ProtoJSONMessage>(_ type: M.Type, _ payload: [UInt8], ignoringUnknownFields: Bool) {
        guard let message = try? M(jsonBytes: payload, ignoringUnknownFields: ignoringUnknownFields) else { return }
        let json = message.jsonBytes()
        let again: M
        do { again = try M(jsonBytes: json) } catch {
            finding(
                "\(M.protoMessageName): its own JSON does not decode (\(error)): \(String(decoding: json, as: UTF8.self))"
            )
        }
        expect(
            again.jsonBytes() == json,
            "\(M.protoMessageName): JSON round trip is not stable: \(String(decoding: json, as: UTF8.self))")
        // On to the services as protobuf: a string holding U+0000 is refused there (typed).
        if let encoded = try? message.serializedBytes() {
            do { _ = try M(serializedBytes: encoded) } catch {
                finding("\(M.protoMessageName): the encoding of a JSON request does not decode: \(error)")
            }
        }
        ProtoValues.map(message)
    }

    private static func encode<M: GlimpseMessage>(_ message: M, _ what: String) -> [UInt8] {
        do { return try message.serializedBytes() } catch {
            finding("\(M.protoMessageName): \(what) does not encode: \(error)")
        }
    }
}
