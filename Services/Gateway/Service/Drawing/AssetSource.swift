internal import GlimpseMessages
import GlimpseRPC
internal import RPCCore
internal import Rendering
import Synchronization

/// The images widgets and Live Activities show, from glimpse-asset: pixel sizes for
/// layout and bytes for SVGs that embed them. A copy is revalidated with its ETag when it is
/// more than a couple of seconds old, so an app that puts new bytes under a name is drawn
/// with them and a screen drawn many times a second costs no transfer.
final class AssetSource: Sendable {
    private struct Copy {
        var etag: String
        var image: AssetImage
        var checked: ContinuousClock.Instant
    }

    private let cache = Mutex<[AssetKey: Copy]>([:])
    private let upstreams: Upstreams
    static let fresh: Duration = .seconds(2)
    static let capacity = 4_096

    init(upstreams: Upstreams) { self.upstreams = upstreams }

    /// The images named by `keys` that glimpse-asset has; missing ones are left out (the
    /// renderer draws a labelled box in their place).
    func images(_ keys: Set<AssetKey>) async -> [AssetKey: AssetImage] {
        var found: [AssetKey: AssetImage] = [:]
        for key in keys {
            if let image = await image(key) { found[key] = image }
        }
        return found
    }

    private func image(_ key: AssetKey) async -> AssetImage? {
        let cached = cache.withLock { $0[key] }
        if let cached, ContinuousClock.now - cached.checked < Self.fresh { return cached.image }
        var request = GlimpseAssetV1.GetRequest()
        request.bundleId = key.bundleID
        request.name = key.name
        request.ifNoneMatch = cached?.etag ?? ""
        do {
            let copy: Copy? = try await upstreams.call(.asset, timeout: .seconds(5)) { options in
                try await upstreams.asset().get(ClientRequest(message: request), options: options) { stream in
                    var asset: GlimpseAssetV1.Asset?
                    var bytes: [UInt8] = []
                    for try await part in stream {
                        switch part.part {
                        case .header(let header)?:
                            if header.notModified, var cached {
                                cached.checked = .now
                                return cached
                            }
                            asset = header.asset
                        case .chunk(let chunk)?:
                            bytes += chunk
                        case nil:
                            break
                        }
                    }
                    guard let asset, !asset.evicted else { return nil }
                    let type = asset.format == .jpeg ? "image/jpeg" : "image/png"
                    return Copy(
                        etag: asset.etag,
                        image: AssetImage(
                            pixelWidth: Int(asset.width), pixelHeight: Int(asset.height), mediaType: type, data: bytes),
                        checked: .now)
                }
            }
            cache.withLock { cache in
                if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
                cache[key] = copy
            }
            return copy?.image
        } catch {
            // Unreachable or not found: draw with what was known, if anything.
            return cached?.image
        }
    }
}
