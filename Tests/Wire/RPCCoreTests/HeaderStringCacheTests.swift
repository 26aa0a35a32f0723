@testable import RPCCore
import Testing

@Suite("Header strings kept per connection")
struct HeaderStringCacheTests {
    func lookUp(_ cache: HeaderStringCache, _ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { cache.string(for: $0) }
    }

    @Test func handsBackTheSameTextForTheSameBytes() {
        let cache = HeaderStringCache()
        for text in ["", "te", "user-agent", "/grpc.testing.TestService/UnaryCall"] {
            #expect(lookUp(cache, text) == text)
            #expect(lookUp(cache, text) == text, "found again")
        }
    }

    /// Same length, same first and last eight bytes: only the bytes between differ, so the
    /// digest alone cannot tell them apart and the bytes must be compared.
    @Test func tellsApartTextsThatShareLengthStartAndEnd() {
        let cache = HeaderStringCache()
        let a = "/pkg.Svc/XAAAA_a/Method", b = "/pkg.Svc/XBBBB_a/Method"
        #expect(lookUp(cache, a) == a)
        #expect(lookUp(cache, b) == b)
        #expect(lookUp(cache, a) == a)
        // Short texts: the digest is the bytes themselves.
        #expect(lookUp(cache, "ab") == "ab")
        #expect(lookUp(cache, "ba") == "ba")
    }

    @Test func staysCorrectPastItsCapacity() {
        let cache = HeaderStringCache(capacity: 4)
        let texts = (0..<20).map { "/pkg.Service/Method\($0)" }
        for _ in 0..<3 {
            for text in texts { #expect(lookUp(cache, text) == text) }
        }
    }
}

@Suite("Metadata look-ups")
struct MetadataLookupTests {
    @Test func findsValuesOfTheirKindInOrderWhateverTheKeysCase() {
        var metadata = Metadata()
        metadata.addString("one", forKey: "x-key")
        metadata.addBinary([1], forKey: "x-key-bin")
        metadata.addString("two", forKey: "X-Key")
        metadata.addString("other", forKey: "x-other")
        #expect(metadata[stringValues: "X-KEY"] == ["one", "two"])
        #expect(metadata[binaryValues: "x-key-bin"] == [[1]])
        #expect(metadata[binaryValues: "x-key"].isEmpty, "text values are not binary ones")
        #expect(metadata[stringValues: "x-missing"].isEmpty)
        #expect(Metadata()[stringValues: "x-key"].isEmpty)
    }
}

@Suite("Deadlines kept in a form of fixed size")
struct FixedInstantTests {
    @Test func givesBackTheInstantItWasMadeFrom() {
        let now = ContinuousClock.now
        for offset: Duration in [.zero, .nanoseconds(1), .seconds(-3), .seconds(86_400 * 365)] {
            let instant = now.advanced(by: offset)
            #expect(FixedInstant(instant).instant == instant)
        }
    }

    @Test func contextAndStreamReportTheirDeadline() {
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        var context = ServerContext(
            method: MethodDescriptor(service: "s", method: "m"), requestMetadata: Metadata(),
            deadline: deadline, remotePeer: "test")
        #expect(context.deadline == deadline)
        context.deadline = nil
        #expect(context.deadline == nil)

        let stream = ServerStream(head: RequestHead(path: "/s/m"), deadline: deadline, remotePeer: "test")
        #expect(stream.deadline == deadline)
        #expect(ServerStream(head: RequestHead(path: "/s/m"), deadline: nil, remotePeer: "test").deadline == nil)

        // From a timeout: at least that far from a moment before it was made.
        let before = ContinuousClock.now
        let timed = ServerStream(
            head: RequestHead(path: "/s/m", timeout: .seconds(2)), remotePeer: "test",
            eagerAllowance: 1, highWatermark: 2, lowWatermark: 1)
        let timedDeadline = try! #require(timed.deadline)
        #expect(timedDeadline >= before.advanced(by: .seconds(2)))
        #expect(timedDeadline <= ContinuousClock.now.advanced(by: .seconds(2)))
    }
}
