import Contracts
import GlimpseCLI
import GlimpseJSON
import RPCCore
import RPCNIO
import Testing

/// A change to a provider that breaks what a consumer relies on fails the verification,
/// and the failure names the consumer, the interaction, the field, what was relied on and
/// what came. The provider here is the real glimpse-timeline behind a proxy that drops
/// `budget` from GetPlacement's answer (as a change to its handler would).
@Suite("A provider that breaks a contract fails its verification")
struct BrokenProviderTests {
    /// The real glimpse-timeline behind the proxy; `body` gets the proxy's port.
    static func brokenTimeline<Result: Sendable>(_ body: @escaping (Int) async throws -> Result) async throws -> Result
    {
        try await Provider.timeline.serving { real in
            let target = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: real))
            let running = Task { try? await target.run() }
            defer { target.beginGracefulShutdown() }
            let proxy = AlteringProxy(provider: "glimpse-timeline", target: target) { method, answer in
                method == "glimpse.timeline.v1.TimelineService/GetPlacement" ? answer.removing("budget") : answer
            }
            let result = try await LoopbackServer.serving([proxy], body)
            target.beginGracefulShutdown()
            await running.value
            return result
        }
    }

    @Test("dropping GetPlacement's budget fails glimpse-gateway's get-placement, by field, and nothing else")
    func verification() async throws {
        let interactions = try Repository.contracts().provided(by: "glimpse-timeline")
        let verdicts = try await Self.brokenTimeline { port in
            await ContractReplayer.verify(interactions, host: "127.0.0.1", port: port)
        }
        let failed = verdicts.filter(\.failed)
        #expect(failed.map(\.interaction.title) == ["glimpse-gateway → glimpse-timeline: get-placement"])
        let line = try #require(failed.first?.line)
        print(line)
        #expect(line.hasPrefix("FAILED  glimpse-gateway → glimpse-timeline: get-placement ("))
        #expect(line.contains("field budget.placementId: expected \"") && line.contains("got absent"))
        #expect(line.contains("field budget.limit: expected a number ≥ 1, got absent (the default, 0)"))
        #expect(line.contains("field budget.windowSeconds: expected a number ≥ 1, got absent (the default, 0)"))
    }

    @Test(
        "glimpse contracts verify: ok lines and exit 0 against the provider (twice), FAILED and exit 1 against the broken one"
    )
    func command() async throws {
        let fine = try await Provider.timeline.serving { port in
            var runs: [(Int32, String, String)] = []
            for _ in 0..<2 {
                runs.append(
                    await Self.glimpse([
                        "contracts", "verify", "--provider", "timeline", "--target", "127.0.0.1:\(port)",
                    ]))
            }
            return runs
        }
        for (status, output, errors) in fine {
            #expect(status == 0, "\(output)\(errors)")
            #expect(output.contains("ok      glimpse-gateway → glimpse-timeline: get-placement"))
            #expect(output.contains("ok      glimpse-intent → glimpse-timeline: reload-placement"))
            #expect(output.contains("0 FAILED"))
        }
        let (status, output, errors) = try await Self.brokenTimeline { port in
            await Self.glimpse(["contracts", "verify", "--provider", "timeline", "--target", "127.0.0.1:\(port)"])
        }
        print(output + errors)
        #expect(status == 1)
        #expect(output.contains("FAILED  glimpse-gateway → glimpse-timeline: get-placement"))
        #expect(output.contains("field budget.limit: expected a number ≥ 1, got absent (the default, 0)"))
        #expect(errors.contains("error: 1 of "))

        let (jsonStatus, json, _) = try await Self.brokenTimeline { port in
            await Self.glimpse([
                "contracts", "verify", "--provider", "glimpse-timeline", "--target", "127.0.0.1:\(port)", "--json",
            ])
        }
        #expect(jsonStatus == 1)
        let lines = try json.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        let failure = try #require(lines.first { $0["result"] == "failed" })
        #expect(failure["consumer"] == "glimpse-gateway" && failure["interaction"] == "get-placement")
        #expect(
            failure["failures"]?.items.contains {
                $0["field"] == "budget.limit" && $0["got"] == "absent (the default, 0)"
            } == true)
    }

    @Test("glimpse contracts verify against a provider on the system clock: AdvanceTo is skipped, the rest holds")
    func systemClock() async throws {
        let (status, output, errors) = try await Provider.asset.serving(systemClock: true) { port in
            await Self.glimpse([
                "contracts", "verify", "--provider", "asset", "--target", "127.0.0.1:\(port)",
                "--contracts-dir", Repository.contractsDirectory,
            ])
        }
        print(output)
        #expect(status == 0, "\(output)\(errors)")
        #expect(
            output.contains(
                "skipped glimpse-gateway → glimpse-asset: clock-advance-to (only when glimpse.clock.v1.Clock/Now answers manual = true; got false)"
            ))
        // glimpse-gateway's 10, glimpse-timeline's 3.
        #expect(output.contains("13 interactions: 12 ok, 1 skipped, 0 FAILED"))
    }

    @Test("glimpse contracts verify: nothing at the target is exit 3; an unknown provider is a usage error")
    func unreachable() async {
        let (status, _, errors) = await Self.glimpse([
            "contracts", "verify", "--provider", "asset", "--target", "127.0.0.1:1",
        ])
        #expect(status == 3, "\(errors)")
        #expect(errors.contains("error: cannot reach glimpse-asset at 127.0.0.1:1"))
        let (usage, _, usageErrors) = await Self.glimpse(["contracts", "verify", "--provider", "gateway"])
        #expect(usage == 2)
        #expect(usageErrors.contains("--provider: expected timeline, intent, activity or asset"))
    }

    /// Runs the `glimpse` command line in this process.
    static func glimpse(_ arguments: [String]) async -> (Int32, String, String) {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        let status = await GlimpseTool.run(arguments: arguments, output: output, errorOutput: errors)
        return (status, output.text, errors.text)
    }
}

extension JSONValue {
    var items: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }
}
