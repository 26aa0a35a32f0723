#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzTargets
import Testing

/// The fuzz targets without the fuzzer: every corpus file and every minimized crasher
/// (Fuzz/Corpus/<target>/, Fuzz/Crashers/<target>/) through the same target body. A
/// crasher here is a bug the fuzzer found, fixed: this replays its bytes, which stopped the
/// process before the fix (a trap, or a broken invariant of the target).
@Suite("Fuzz: corpora and crashers replayed")
struct ReplayTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// (target, file) for every file under `folder`/<target>/.
    static func inputs(_ folder: String) -> [String] {
        FuzzTarget.all.flatMap { target in
            let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target.name)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(target.name)/\($0)" }
        }
    }

    static func replay(_ folder: String, _ input: String) throws {
        let parts = input.split(separator: "/", maxSplits: 1).map(String.init)
        let target = try #require(FuzzTarget.named(parts[0]))
        let url = fuzz.appendingPathComponent(folder).appendingPathComponent(input)
        target.run(Array(try Data(contentsOf: url)))
    }

    @Test("every target has a seed corpus")
    func everyTargetHasACorpus() {
        for target in FuzzTarget.all {
            #expect(
                Self.inputs("Corpus").contains { $0.hasPrefix(target.name + "/") },
                "Fuzz/Corpus/\(target.name) is empty")
        }
    }

    @Test("corpus files run clean", arguments: inputs("Corpus"))
    func corpus(_ input: String) throws {
        try Self.replay("Corpus", input)
    }

    @Test("minimized crashers stay fixed", arguments: inputs("Crashers"))
    func crasher(_ input: String) throws {
        try Self.replay("Crashers", input)
    }
}
