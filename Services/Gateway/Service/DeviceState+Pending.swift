import EngineHosting
import GlimpseMessages

/// Placements on their way in: a Place names its placement first and keeps it here (and in
/// the store) until every service has it and the device shows it, or until every service
/// that may have it has given it back. Whatever fails half-way (a deadline, a service down,
/// the gateway killed), nothing of it is left at a service for good.
extension DeviceState {
    /// Names a new placement and keeps it as pending.
    func reserve(_ placement: GlimpseGatewayV1.StoredPlacement) throws -> UInt64 {
        var placement = placement
        placement.placementId = nextPlacementID
        nextPlacementID += 1
        try store.put(.pending, Self.key(placement.placementId), placement)
        pending[placement.placementId] = placement
        placing.insert(placement.placementId)
        return placement.placementId
    }

    /// The Place of `id` is over (placed or failed): if it is still pending, the sweeper may take it back.
    func placeEnded(_ id: UInt64) {
        placing.remove(id)
        if pending[id] != nil { placeEnds.signal() }
    }

    /// The placement is on the device, or taken back from every service: no longer pending.
    func settled(_ id: UInt64) throws {
        guard pending.removeValue(forKey: id) != nil else { return }
        try store.delete(.pending, Self.key(id))
    }

    /// Pending placements the device does not show (a Place that failed or was cut short),
    /// and those it shows, which only need forgetting.
    func pendingPlacements() -> (abandoned: [UInt64], shown: [UInt64]) {
        let ids = pending.keys.sorted().filter { !placing.contains($0) }
        return (ids.filter { placements[$0] == nil }, ids.filter { placements[$0] != nil })
    }
}
