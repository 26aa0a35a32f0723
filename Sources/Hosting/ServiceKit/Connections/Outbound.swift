package import RPCCore

/// A peer service this one calls when given its address: glimpse-timeline for the reloads
/// glimpse-intent (taps) and glimpse-activity (widget pushes) ask for (`--timeline-address`),
/// glimpse-asset for glimpse-timeline's image hints (`--asset-address`). Without an address
/// nothing is sent; `log` says what was dropped or failed. These are the device's calls:
/// with a device key (`--device-key`) each carries it, and each names the device it is
/// for (`device`), the one whose state asked for it.
package struct Outbound: Sendable {
    package var address: ServiceAddress?
    package var log: @Sendable (String) -> Void
    package var deviceKey: DeviceKey?
    /// The device these calls are for (`DeviceScope`); nil: the default device.
    package var device: String?

    package init(
        address: ServiceAddress?, deviceKey: DeviceKey? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.address = address
        self.deviceKey = deviceKey
        self.log = log
    }

    /// A client of the peer over `connections`, or nil without an address.
    package func client(_ connections: Connections) -> GRPCClient? {
        guard let address else { return nil }
        var metadata = deviceKey?.metadata ?? Metadata()
        if let device { metadata.addString(device, forKey: DeviceScope.metadataKey) }
        return connections.client(for: address)?.adding(metadata)
    }
}
