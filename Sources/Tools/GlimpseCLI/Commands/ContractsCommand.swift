import ArgumentParser
import Contracts
import GlimpseJSON
import RPCCore
import ServiceKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `glimpse contracts`: the contracts between the services (Tests/Contracts).
struct ContractsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contracts",
        abstract: "The contracts each service holds with the services it calls: replay them against a running one.",
        subcommands: [VerifyContracts.self])
}

/// `glimpse contracts verify --provider timeline --target host:port`: every consumer's
/// contract with that provider, replayed against the running provider.
struct VerifyContracts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Replay every consumer's contract with a provider against a running one; exit 1 on any failure.",
        discussion: """
            Prints one line per interaction: ok, skipped (with why), or FAILED with the consumer, the \
            interaction, and each field with what the consumer relies on and what came. The \
            interactions make their own apps under fresh names (and remove them), so verifying \
            twice against one long-running service passes too; device-wide settings they touch \
            are set to their defaults (unlocked, Low Power Mode off).

            Contracts: --contracts-dir, else Tests/Contracts of the repository the executable was \
            built in, else the copy built into the executable.

            Exit status: 0 every interaction ok (or skipped), 1 one FAILED, 2 a usage error or \
            unreadable contracts, 3 nothing answers at the target.
            """)

    static let providers = ["timeline": 7701, "intent": 7702, "activity": 7703, "asset": 7704]

    @Option(help: ArgumentHelp("The provider: timeline, intent, activity or asset.", valueName: "provider"))
    var provider: String

    @Option(
        help: ArgumentHelp(
            "Where it listens (default: 127.0.0.1 at its default port, 7701–7704).", valueName: "host:port"))
    var target: String?

    @Option(
        name: .customLong("contracts-dir"),
        help: ArgumentHelp("The contracts directory (<consumer>-<provider>/<name>.json).", valueName: "dir"))
    var contractsDirectory: String?

    @Flag(help: "One JSON object per interaction instead of lines.")
    var json = false

    @Option(help: ArgumentHelp("Seconds any one call may take (default 10).", valueName: "seconds"))
    var timeout: Double = 10

    @OptionGroup var credentials: DeviceKeyOptions

    var context: CLIContext { Current.context }

    func validate() throws {
        let name = provider.hasPrefix("glimpse-") ? String(provider.dropFirst("glimpse-".count)) : provider
        guard Self.providers[name] != nil else {
            throw ValidationError("--provider: expected timeline, intent, activity or asset, got \"\(provider)\"")
        }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout: expected seconds > 0") }
    }

    func run() async throws {
        let name = provider.hasPrefix("glimpse-") ? String(provider.dropFirst("glimpse-".count)) : provider
        let service = "glimpse-\(name)"
        let address = try HostPort(parsing: target ?? "127.0.0.1:\(Self.providers[name] ?? 0)", what: "--target")
        let contracts = try loadContracts()
        let interactions = contracts.provided(by: service)
        guard !interactions.isEmpty else {
            throw CLIFailure.usage("no contract in \(contracts.source) has \(service) as its provider")
        }
        context.note(
            "replaying \(interactions.count) interactions of \(service)'s consumers (contracts: \(contracts.source)) against \(address)"
        )
        let verdicts = await ContractReplayer.verify(
            interactions, host: address.host, port: address.port, timeout: .milliseconds(Int64(timeout * 1000)),
            metadata: context.deviceKey?.metadata ?? Metadata()
        ) { verdict in
            guard !verdict.unreachable else { return }
            context.say(json ? String(decoding: verdict.json.serialized(), as: UTF8.self) : verdict.line)
        }
        if let lost = verdicts.first(where: \.unreachable) {
            let got = lost.outcome.firstMismatch?.got ?? ""
            throw CLIFailure.unreachable(
                what: service, address: address.description,
                detail: CLIFailure.transportFailure(Self.message(of: got)) ?? got)
        }
        let failed = verdicts.filter(\.failed).count
        let skipped = verdicts.filter { if case .skipped = $0.outcome { true } else { false } }.count
        if !json {
            context.say(
                "\(verdicts.count) interactions: \(verdicts.count - failed - skipped) ok, \(skipped) skipped, \(failed) FAILED"
            )
        }
        if failed > 0 {
            throw CLIFailure.local(
                "\(failed) of \(verdicts.count) interactions FAILED against \(service) at \(address)")
        }
    }

    /// `--contracts-dir`, the repository's Tests/Contracts, or the built-in copy.
    private func loadContracts() throws(CLIFailure) -> ContractSet {
        do {
            if let contractsDirectory { return try ContractSet.load(directory: contractsDirectory) }
            if let directory = ContractFiles.repositoryContracts(near: Self.executablePath) {
                return try ContractSet.load(directory: directory)
            }
            return try ContractSet.builtIn()
        } catch {
            throw .usage("the contracts do not load:\n\(error.description)")
        }
    }

    private static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
            ?? "."
    }

    /// The status message of `CODE: message`.
    private static func message(of got: String) -> String {
        guard let range = got.firstRange(of: ": ") else { return got }
        return String(got[range.upperBound...])
    }
}

extension Verdict.Outcome {
    var firstMismatch: Mismatch? {
        if case .failed(let mismatches) = self { return mismatches.first }
        return nil
    }
}
