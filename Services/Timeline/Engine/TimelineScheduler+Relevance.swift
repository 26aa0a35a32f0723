package import GlimpseVocabulary
/// Smart Stack ordering.
extension TimelineScheduler {
    /// Orders a stack of placements by their current entry's relevance score, highest
    /// first. An entry's score counts from its date for its duration (0: while it is
    /// current); placements with no current score, or unknown ids, keep their given order
    /// after the scored ones.
    package func stackOrder(_ stack: [PlacementID]) -> [PlacementID] {
        let t = now
        let scored = stack.enumerated().map { offset, id -> (score: Float, offset: Int, id: PlacementID) in
            guard let slot = slotOf[id], let timeline = timelines[Int(slot)],
                let index = timeline.index(at: t),
                let score = timeline.relevanceScore(at: index, time: t)
            else { return (-.infinity, offset, id) }
            return (score, offset, id)
        }
        return scored.sorted { ($0.score, -$0.offset) > ($1.score, -$1.offset) }.map(\.id)
    }
}
