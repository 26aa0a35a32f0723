import Contracts
import Testing

/// The provider side: every consumer's contract with a provider, replayed against the
/// real provider. A change to a provider that breaks what a consumer relies on fails here,
/// naming the consumer, the interaction and the field.
@Suite("Providers keep their consumers' contracts")
struct ProviderVerificationTests {
    @Test("every consumer's contract holds against the real provider", arguments: Provider.allCases)
    func verify(_ provider: Provider) async throws {
        let interactions = try Repository.contracts().provided(by: provider.rawValue)
        #expect(!interactions.isEmpty)
        let verdicts = try await provider.serving { port in
            await ContractReplayer.verify(interactions, host: "127.0.0.1", port: port)
        }
        #expect(verdicts.count == interactions.count)
        let failures = verdicts.filter(\.failed).map(\.line)
        #expect(failures == [])
    }
}
