import Synchronization

/// Runs `call` for every item at once and hands the results to `take` in the items' order,
/// in batches: each time `take` is free it gets every result that is next in order and has
/// arrived. Engine hosts use it for outbound calls (provider timelines, intent handlers):
/// the calls overlap, the answers go in in the order the engine asked (so a script gives
/// the same event log whatever order peers answer in), and many answers share one journal
/// transaction while a slow peer holds up only the answers behind it. `callOut` uses it
/// per lane.
package func inOrderBatches<Item: Sendable, Answer: Sendable>(
    _ items: [Item],
    call: @escaping @Sendable (Item) async -> Answer,
    take: ([Answer]) async -> Void
) async {
    guard !items.isEmpty else { return }
    let arrived = Arrivals<Answer>()
    let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    await withDiscardingTaskGroup { group in
        for (index, item) in items.enumerated() {
            group.addTask {
                let answer = await call(item)
                arrived.answers.withLock { $0[index] = answer }
                signal.yield()
            }
        }
        var next = 0
        for await _ in signals {
            let ready: [Answer] = arrived.answers.withLock { arrived in
                var ready: [Answer] = []
                while let answer = arrived.removeValue(forKey: next) {
                    ready.append(answer)
                    next += 1
                }
                return ready
            }
            if !ready.isEmpty { await take(ready) }
            if next == items.count { break }
        }
        signal.finish()
    }
}

private final class Arrivals<Answer: Sendable>: Sendable {
    let answers = Mutex<[Int: Answer]>([:])
}
