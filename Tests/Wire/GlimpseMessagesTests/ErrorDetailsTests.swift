import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Testing

/// Typed refusals: a google.rpc.Status with one ErrorInfo in `grpc-status-details-bin`.
@Suite("Error details: google.rpc.Status in grpc-status-details-bin")
struct ErrorDetailsTests {
    @Test("a refusal's reason is its enum value without the prefix, its domain the enum; read back as the enum")
    func reasonFromAnEnum() throws {
        let error = RPCError(
            code: .failedPrecondition, message: "NOT_INTERACTIVE: buttons and toggles are refused on accessoryInline",
            reason: GlimpseIntentV1.Refusal.notInteractive, metadata: ["family": "accessoryInline"])
        let info = try #require(error.errorInfo)
        #expect(info.reason == "NOT_INTERACTIVE")
        #expect(info.domain == "glimpse.intent.v1.Refusal")
        #expect(info.metadata == ["family": "accessoryInline"])
        #expect(error.reason(as: GlimpseIntentV1.Refusal.self) == .notInteractive)
        // Another enum's domain is not this enum's reason.
        #expect(error.reason(as: GlimpseWidgetV1.WidgetFamily.self) == nil)
        #expect(
            RPCError(code: .failedPrecondition, message: "DEVICE_LOCKED").reason(as: GlimpseIntentV1.Refusal.self)
                == nil)
    }

    @Test("the trailer's Status repeats the call's code and message, as gRPC clients check")
    func statusRepeatsCodeAndMessage() throws {
        let error = RPCError(code: .failedPrecondition, message: "locked", reason: GlimpseIntentV1.Refusal.deviceLocked)
        let bytes = try #require(error.metadata[binaryValues: RPCError.statusDetailsKey].first)
        let status = try GlimpseRpcV1.Status(serializedBytes: bytes)
        #expect(status.code == 9 && status.message == "locked")
        #expect(status.details.map(\.typeUrl) == ["type.googleapis.com/google.rpc.ErrorInfo"])
    }

    @Test("the JSON face renders the details as proto3 JSON renders an Any: @type, then the fields")
    func json() throws {
        let error = RPCError(
            code: .failedPrecondition, message: "m", reason: GlimpseIntentV1.Refusal.notInteractive,
            metadata: ["family": "accessoryInline"])
        let text = try #require(ErrorDetails.json(from: error.metadata))
        let value = try JSONParser.parse(text)
        #expect(
            value
                == .array([
                    .object([
                        JSONMember("@type", .string("type.googleapis.com/google.rpc.ErrorInfo")),
                        JSONMember("reason", .string("NOT_INTERACTIVE")),
                        JSONMember("domain", .string("glimpse.intent.v1.Refusal")),
                        JSONMember("metadata", .object([JSONMember("family", .string("accessoryInline"))])),
                    ])
                ]))
        #expect(ErrorDetails.json(from: Metadata()) == nil)
        // A detail of a type Glimpse does not know: its type and its bytes.
        var trailers = Metadata()
        let other = GlimpseRpcV1.Status(
            code: 9, message: "m", details: [GlimpseRpcV1.AnyDetail(typeUrl: "type.googleapis.com/x.Y", value: [1, 2])])
        trailers.addBinary(try other.serializedBytes(), forKey: RPCError.statusDetailsKey)
        #expect(
            ErrorDetails.json(from: trailers).map { String(decoding: $0, as: UTF8.self) }
                == #"[{"@type":"type.googleapis.com/x.Y","value":"AQI="}]"#)
        // Bytes that are no Status: no details, not a failure.
        var garbage = Metadata()
        garbage.addBinary([0xFF, 0xFF, 0xFF], forKey: RPCError.statusDetailsKey)
        #expect(ErrorDetails.json(from: garbage) == nil)
    }

    @Test("passed on, an error keeps its code, message and reason, and drops the peer's other trailers")
    func passedOn() throws {
        var error = RPCError(code: .failedPrecondition, message: "locked", reason: GlimpseIntentV1.Refusal.deviceLocked)
        error.metadata.addString("internal", forKey: "x-peer-detail")
        let passed = error.passedOn
        #expect(passed.code == .failedPrecondition && passed.message == "locked")
        #expect(passed.reason(as: GlimpseIntentV1.Refusal.self) == .deviceLocked)
        #expect(passed.metadata[stringValues: "x-peer-detail"].isEmpty)
        var plain = RPCError(code: .notFound, message: "gone")
        plain.metadata.addString("internal", forKey: "x-peer-detail")
        #expect(plain.passedOn == RPCError(code: .notFound, message: "gone"))
    }
}
