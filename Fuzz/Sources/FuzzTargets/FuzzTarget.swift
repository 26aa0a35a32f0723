/// One fuzz target: a name, and what one input does to the production code it covers.
///
/// Invariants every target keeps: it calls production code only (what a port does with
/// bytes from outside, nothing reimplemented); bad input ends in the code's own typed
/// errors; and where a round trip exists it is checked (parse -> write -> parse gives the
/// same thing). A broken invariant stops the process (`FuzzFinding`): libFuzzer saves the
/// input as a crasher. The same bodies replay the corpora and crashers in the ordinary
/// tests (`FuzzReplayTests`), so each finding stays fixed.
package struct FuzzTarget: Sendable {
    package let name: String
    /// Runs one input.
    package let run: @Sendable ([UInt8]) -> Void

    package init(name: String, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.run = run
    }

    /// Every target, in the order `Fuzz/run.sh` runs them.
    package static let all: [FuzzTarget] = [.json, .proto, .http1, .apns, .render, .manifest]

    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// A broken invariant: the production code did something it must never do with this input.
/// Stops the process with the reason (libFuzzer keeps the input).
func finding(_ reason: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz finding: \(reason())", file: file, line: line)
}

/// `finding` unless `condition` holds.
func expect(_ condition: Bool, _ reason: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { finding(reason(), file: file, line: line) }
}
