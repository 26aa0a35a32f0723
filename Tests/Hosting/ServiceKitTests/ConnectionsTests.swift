import RPCCore
import Synchronization
import Testing

@testable import ServiceKit

/// A pool that shares another's connections (every device of a process calls a provider
/// on one connection): one connection per address however many pools share it, and a
/// sharing pool's shutdown leaves it to the others.
@Suite struct ConnectionsTests {
    final class Made: Sendable {
        let count = Mutex(0)
        var transports: Connections.Transports {
            Connections.Transports { _, _ in
                self.count.withLock { $0 += 1 }
                return InProcessTransport().client
            }
        }
    }

    let address = ServiceAddress(host: "127.0.0.1", port: 7710)

    @Test("pools sharing one make one connection per address; a sharing pool's shutdown closes none of it")
    func sharing() async throws {
        let made = Made()
        let parent = Connections(transports: made.transports)
        let first = Connections(sharing: parent)
        let second = Connections(sharing: parent)
        #expect(first.client(for: address) != nil)
        #expect(second.client(for: address) != nil)
        #expect(made.count.withLock { $0 } == 1)

        await first.shutdown()
        #expect(first.client(for: address) == nil)
        #expect(second.client(for: address) != nil)
        #expect(parent.client(for: address) != nil)
        #expect(made.count.withLock { $0 } == 1)

        // A reset through a sharing pool is the shared connection's: the next call makes one.
        second.reset(address)
        #expect(parent.client(for: address) != nil)
        #expect(made.count.withLock { $0 } == 2)
        await second.shutdown()
        await parent.shutdown()
        #expect(parent.client(for: address) == nil)
    }
}
