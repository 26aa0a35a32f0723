// glimpse-host-probe: opens an engine host over the toy counter on a journal file, submits
// `add(1)` up to N times, and prints "ack <sequence>" once each is acknowledged. The
// kill -9 tests kill it mid-stream and reopen the file. With a third argument it takes a
// snapshot every that many inputs, so a kill may land in the middle of one.
//
//     glimpse-host-probe <journal.sqlite> <count> [<snapshot-every>]
import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let count = Int(arguments[2]),
    let every = arguments.count == 4 ? Int(arguments[3]) : 0
else {
    FileHandle.standardError.write(Data("usage: glimpse-host-probe <journal.sqlite> <count> [<snapshot-every>]\n".utf8))
    exit(2)
}
do {
    let clock = HostClock(.system)
    let host = try EngineHost(
        engine: Counter(clock: clock), clock: clock, journal: try Journal(path: arguments[1]),
        snapshotting: every > 0 ? Snapshotting(policy: SnapshotPolicy(every: every)) : nil,
        apply: CounterCommand.apply, perform: { _, _ in })
    for _ in 0..<count {
        try await host.submit(.add(1))
        let sequence = await host.lastSequence
        // Unbuffered: a line on the pipe is an acknowledgement already given.
        FileHandle.standardOutput.write(Data("ack \(sequence)\n".utf8))
    }
    try await host.close()
} catch {
    FileHandle.standardError.write(Data("glimpse-host-probe: \(error)\n".utf8))
    exit(1)
}
