/// Calls to apps that the engine's effects ask for, and their answers coming back.
///
/// One app's slow endpoint must never hold up another app's work:
/// - **System clock**: the calls are grouped by app (a lane each); every lane runs at once
///   beside the host and takes its answers in the order its calls were asked, in batches. The
///   timer, the submitter and the other lanes never wait for it.
/// - **Manual clock**: a call takes no device time. The calls run at once and their answers
///   are taken in the order the engine asked for them, whichever app answers first, and the
///   caller (the firing of `advance(to:)`, the submit) waits for them: `AdvanceTo` returns
///   only when the calls it caused are answered, and a script gives the same journal and
///   event log whatever order the apps answer in.
extension EngineHost {
    package nonisolated func callOut<Item: Sendable, Answer: Sendable>(
        _ items: [Item], app: (Item) -> String,
        call: @escaping @Sendable (Item) async -> Answer,
        take: @escaping @Sendable ([Answer]) async -> Void
    ) async {
        guard !items.isEmpty else { return }
        if clock.isManual {
            await inOrderBatches(items, call: call, take: take)
            return
        }
        var lanes: [String: [Item]] = [:]
        var order: [String] = []
        for item in items {
            let lane = app(item)
            if lanes[lane] == nil { order.append(lane) }
            lanes[lane, default: []].append(item)
        }
        for lane in order {
            let items = lanes[lane] ?? []
            background.start { await inOrderBatches(items, call: call, take: take) }
        }
    }
}
