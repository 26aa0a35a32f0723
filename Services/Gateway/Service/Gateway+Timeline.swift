internal import GlimpseMessages
internal import GlimpseRPC
internal import RPCCore

extension Gateway {
    /// A placement's whole timeline as glimpse-timeline holds it (entries with their dates,
    /// the policy, the budget, the last provider error): NOT_FOUND for a placement this
    /// device does not have, UNAVAILABLE naming glimpse-timeline when it cannot be reached.
    func timeline(_ id: UInt64) async throws(RPCError) -> GlimpseTimelineV1.PlacementStatus {
        _ = try await device.placement(id)
        var status = try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().getPlacement(
                ClientRequest(message: .init(placementId: id)), options: options
            ).message
        }
        AnswerBudget.fit(&status)
        return status
    }
}
