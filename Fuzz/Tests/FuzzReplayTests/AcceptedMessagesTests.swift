#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzTargets
import Testing

@Suite("Fuzz: the proto target covers every request a port accepts")
struct AcceptedMessagesTests {
    @Test func everyServedRequestTypeIsFuzzed() throws {
        let generated = ReplayTests.fuzz.deletingLastPathComponent().appendingPathComponent(
            "Sources/Wire/GlimpseRPC/Generated")
        let files = try FileManager.default.contentsOfDirectory(atPath: generated.path).filter {
            $0.hasSuffix(".rpc.swift")
        }
        var served = Set<String>()
        for file in files {
            let text = try String(contentsOf: generated.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /(?:ServerRequest|RequestStream)<([A-Za-z0-9_.]+)>/) {
                served.insert(String(match.1))
            }
        }
        #expect(served.count > 50, "the generated stubs were not found")
        let fuzzed = Set(AcceptedMessages.types.map { String(reflecting: $0).replacing("GlimpseMessages.", with: "") })
        #expect(
            served.subtracting(fuzzed).sorted() == [],
            "add these to Fuzz/Sources/FuzzTargets/AcceptedMessages.swift (at the end)")
    }
}
