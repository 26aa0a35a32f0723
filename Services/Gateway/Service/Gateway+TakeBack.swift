import GlimpseMessages
import GlimpseRPC
import Logging
import RPCCore

/// Taking back what a failed Place left at the services (see `DeviceState+Pending`).
extension Gateway {
    /// Removes placement `id` from glimpse-timeline and glimpse-intent, unless the device
    /// shows it; forgets it as pending once neither service has it. Returns whether it is settled.
    @discardableResult
    func takeBack(_ id: UInt64, loud: Bool = false) async -> Bool {
        if (try? await device.placement(id)) != nil {
            try? await device.settled(id)
            return true
        }
        if let failure = await takeBackFromServices(id) {
            // Said once when the Place fails; the sweeper's retries are quiet.
            logger.log(
                level: loud ? .warning : .debug,
                "placement \(id): a failed Place is not yet taken back from the services (\(failure)); trying again")
            return false
        }
        try? await device.settled(id)
        return true
    }

    /// Removes placement `id` at glimpse-timeline (gone already counts) and glimpse-intent;
    /// nil when both have done it, else what failed.
    private func takeBackFromServices(_ id: UInt64) async -> RPCError? {
        do {
            _ = try await upstreams.call(.timeline) { options in
                try await upstreams.timeline().remove(ClientRequest(message: .init(placementId: id)), options: options)
            }
        } catch {
            if error.code != .notFound { return error }
        }
        do {
            _ = try await upstreams.call(.intent) { options in
                try await upstreams.intent().placementRemoved(
                    ClientRequest(message: .init(placementId: id)), options: options)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Takes back every pending placement the device does not show: at start (a gateway
    /// killed in the middle of a Place) and after failures the services were down for.
    /// Returns whether none is left.
    @discardableResult
    func takeBackPending() async -> Bool {
        let (abandoned, shown) = await device.pendingPlacements()
        for id in shown { try? await device.settled(id) }
        var settled = true
        for id in abandoned where await !takeBack(id) { settled = false }
        return settled
    }
}
