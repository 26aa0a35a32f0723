import RPCCore
import Testing

/// Deadlines flow: a call a handler makes goes out with what is left of the caller's
/// deadline, its own timeout a ceiling; calls on the service's own account opt out.
@Suite struct CallDeadlineTests {
    static let relay = MethodDescriptor(service: "glimpse.test.v1.Relay", method: "Hop")

    /// A service whose one method answers what the next hop would be given: the timeout a
    /// 60 s call made from inside it goes out with, in milliseconds, and that of one that
    /// does not inherit.
    struct Relay: RPCService {
        func registerMethods(with router: inout RPCRouter) {
            router.registerUnary(Self.relayMethod, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) {
                _, context in
                let inherited = CallOptions(timeout: .seconds(60)).effectiveTimeout
                let own = CallOptions(timeout: .seconds(60), inheritsDeadline: false).effectiveTimeout
                let millis = { (d: Duration?) in
                    d.map { String($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
                        ?? "none"
                }
                let seen = CallDeadline.current == context.deadline
                return ServerResponse(message: Array("\(millis(inherited)) \(millis(own)) \(seen)".utf8))
            }
        }
        static var relayMethod: MethodDescriptor { CallDeadlineTests.relay }
    }

    func hop(_ timeout: Duration?) async throws -> [String] {
        let reply = try await withInProcessClient(services: [Relay()]) { client in
            try await client.unary(
                request: ClientRequest(message: [UInt8]()), method: Self.relay, serializer: raw, deserializer: raw,
                options: CallOptions(timeout: timeout))
        }
        return String(decoding: reply.message, as: UTF8.self).split(separator: " ").map(String.init)
    }

    @Test func aCallMadeWhileHandlingOneGetsWhatIsLeftOfItsDeadline() async throws {
        let answer = try await hop(.seconds(3))
        let inherited = try #require(Int(answer[0]))
        #expect(inherited > 0 && inherited <= 3_000, "\(answer)")
        #expect(answer[1] == "60000")  // the service's own call keeps its own timeout
        #expect(answer[2] == "true")
    }

    @Test func withoutADeadlineTheCallersOwnTimeoutStands() async throws {
        #expect(try await hop(nil) == ["60000", "60000", "true"])
    }

    @Test func theCallersShorterTimeoutIsKept() {
        CallDeadline.$current.withValue(ContinuousClock.now + .seconds(30)) {
            #expect(CallOptions(timeout: .seconds(1)).effectiveTimeout == .seconds(1))
            #expect(CallOptions(timeout: nil).effectiveTimeout.map { $0 <= .seconds(30) } == true)
        }
        #expect(CallOptions(timeout: nil).effectiveTimeout == nil)
    }
}
