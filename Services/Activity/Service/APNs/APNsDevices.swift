import GlimpseVocabulary
import Synchronization

/// Which device's endpoint answers an APNs request, where one glimpse-activity serves many
/// devices (`DeviceTable`). A push to `/3/device/<token>` goes to the device that issued the
/// token — Live Activity update tokens, push-to-start and widget tokens, and tokens it retired
/// (their 410) — found once and remembered; everything else (a token nobody issued, broadcasts
/// and channel management, which are the default device's only) goes to the default device,
/// which answers as Apple does. Without other devices nothing is looked up.
package final class APNsDevices: Sendable {
    let fallback: APNsEndpoint
    private let endpoints = Mutex<[String: APNsEndpoint]>([:])
    /// Token -> device, for tokens found on a device beside the default.
    private let owners = Mutex<[PushToken: String]>([:])

    package init(default endpoint: APNsEndpoint) {
        fallback = endpoint
    }

    /// `device`'s endpoint answers the pushes to its tokens from now on.
    package func register(_ device: String, _ endpoint: APNsEndpoint) {
        endpoints.withLock { $0[device] = endpoint }
    }

    /// `device` is closed or deleted: its tokens reach nothing any more.
    package func remove(_ device: String) {
        endpoints.withLock { $0[device] = nil }
        owners.withLock { owners in owners = owners.filter { $0.value != device } }
    }

    /// The endpoint that answers `request`, and its device (nil: the default).
    package func endpoint(for request: APNsRequest) async -> (device: String?, endpoint: APNsEndpoint) {
        let devices = endpoints.withLock { $0 }
        guard !devices.isEmpty, let text = request.path.lastSegment(after: "/3/device/"),
            let token = PushToken(hex: text)
        else { return (nil, fallback) }
        if let owner = owners.withLock({ $0[token] }), let endpoint = devices[owner] { return (owner, endpoint) }
        if await fallback.holds(token) { return (nil, fallback) }
        for (device, endpoint) in devices.sorted(by: { $0.key < $1.key }) where await endpoint.holds(token) {
            owners.withLock { $0[token] = device }
            return (device, endpoint)
        }
        return (nil, fallback)
    }
}
