#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON

/// Every consumer's contracts: one interaction per file under
/// `<consumer>-<provider>/` (e.g. `gateway-timeline/get-placement.json`), read from a
/// directory or from the copy built into the binary (`EmbeddedContracts`).
package struct ContractSet: Sendable {
    package var interactions: [Interaction]
    /// Where they came from, for reports (a directory, or "built in").
    package var source: String

    package init(interactions: [Interaction], source: String) {
        self.interactions = interactions
        self.source = source
    }

    /// The interactions whose provider is `provider` (`glimpse-timeline`), in file order.
    package func provided(by provider: String) -> [Interaction] {
        interactions.filter { $0.provider == provider }
    }

    /// One consumer's contract with one provider.
    package func between(_ consumer: String, _ provider: String) -> [Interaction] {
        interactions.filter { $0.consumer == consumer && $0.provider == provider }
    }

    /// The consumer → provider pairs, in order.
    package var pairs: [(consumer: String, provider: String)] {
        var seen: [(String, String)] = []
        for interaction in interactions
        where !seen.contains(where: { $0 == (interaction.consumer, interaction.provider) }) {
            seen.append((interaction.consumer, interaction.provider))
        }
        return seen
    }

    /// Parses and checks `files` (path under the contracts directory → bytes). Every problem
    /// of every file is reported at once.
    package static func load(
        files: [(path: String, bytes: [UInt8])], source: String
    ) throws(ContractLoadError) -> ContractSet {
        var interactions: [Interaction] = []
        var problems: [ContractFileError] = []
        for (path, bytes) in files.sorted(by: { $0.path < $1.path }) where path.hasSuffix(".json") {
            do {
                let interaction = try Interaction(file: path, bytes: bytes)
                try ContractCheck.validate(interaction)
                interactions.append(interaction)
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw ContractLoadError(problems: problems) }
        return ContractSet(interactions: interactions, source: source)
    }

    /// Reads `<directory>/<pair>/*.json`.
    package static func load(directory: String) throws(ContractLoadError) -> ContractSet {
        let files: [(path: String, bytes: [UInt8])]
        do { files = try ContractFiles.read(directory: directory) } catch {
            throw ContractLoadError(problems: [ContractFileError("\(directory): \(error)")])
        }
        guard !files.isEmpty else {
            throw ContractLoadError(problems: [
                ContractFileError("\(directory): no contract files (<consumer>-<provider>/<name>.json)")
            ])
        }
        return try load(files: files, source: directory)
    }

    /// The copy built into the binary.
    package static func builtIn() throws(ContractLoadError) -> ContractSet {
        try load(files: EmbeddedContracts.files.map { ($0.path, Array($0.text.utf8)) }, source: "built in")
    }
}

/// Why contracts could not be loaded: every problem, each naming its file.
package struct ContractLoadError: Error, Sendable, CustomStringConvertible {
    package var problems: [ContractFileError]

    package var description: String { problems.map(\.message).joined(separator: "\n") }
}

/// The contract files on disk.
package enum ContractFiles {
    /// Every `<pair>/<name>.json` under `directory`, by its path relative to it.
    package static func read(directory: String) throws -> [(path: String, bytes: [UInt8])] {
        let manager = FileManager.default
        var files: [(path: String, bytes: [UInt8])] = []
        for pair in try manager.contentsOfDirectory(atPath: directory).sorted() {
            let pairPath = directory + "/" + pair
            // A file beside the pairs' directories is no pair.
            guard let names = try? manager.contentsOfDirectory(atPath: pairPath) else { continue }
            for name in names.sorted() where name.hasSuffix(".json") {
                guard let data = manager.contents(atPath: pairPath + "/" + name) else {
                    throw ContractFileError("\(pair)/\(name): cannot be read")
                }
                files.append(("\(pair)/\(name)", [UInt8](data)))
            }
        }
        return files
    }

    /// `Tests/Contracts` of the repository a file (the running executable) sits in: the
    /// nearest directory above it holding `Package.swift` and `Tests/Contracts`.
    package static func repositoryContracts(near path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        let manager = FileManager.default
        while url.path != "/" {
            url = url.deletingLastPathComponent()
            let candidate = url.appendingPathComponent("Tests/Contracts").path
            if manager.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
                manager.fileExists(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }
}
