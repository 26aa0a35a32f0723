import Contracts
import Foundation

/// The contract files of this repository (Tests/Contracts), as the tests read them.
enum Repository {
    static let contractsDirectory = URL(fileURLWithPath: #filePath)  // Tests/Tools/ContractTests/Support/…
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Contracts").path

    static func contracts() throws -> ContractSet {
        try ContractSet.load(directory: contractsDirectory)
    }
}

/// A fresh directory under the temporary directory, removed by `remove()`.
struct Scratch {
    let url: URL

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The instant every manual clock in these tests starts at.
let start = Date(timeIntervalSince1970: 1_767_258_000)  // 2026-01-01T09:00:00Z
