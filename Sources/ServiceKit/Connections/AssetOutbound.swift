public import GlimpseMessages
public import GlimpseRPC

/// Where glimpse-timeline sends the asset hints of the entries it shows (`--asset-address`):
/// the images of a widget's current entry are pinned (never evicted while shown) and those
/// of its upcoming entries prefetched. Without an address no hint is sent.
public struct AssetOutbound: Sendable {
    public var assetAddress: String?
    public var log: @Sendable (String) -> Void

    public init(assetAddress: String?, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.assetAddress = assetAddress
        self.log = log
    }

    /// The glimpse-asset client over `connections`, or nil without an address.
    public func asset(_ connections: Connections) -> GlimpseAssetV1.AssetService.Client? {
        guard let assetAddress, let connection = connections.client(for: assetAddress) else { return nil }
        return GlimpseAssetV1.AssetService.Client(wrapping: connection)
    }
}
