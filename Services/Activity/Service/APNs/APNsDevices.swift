package import GlimpseVocabulary
import Synchronization

/// Which device's endpoint answers an APNs request, where one glimpse-activity serves many
/// devices (`DeviceTable`). A push to `/3/device/<token>` goes to the device that issued the
/// token — Live Activity update tokens, push-to-start and widget tokens, and tokens it retired
/// (their 410); everything else (a token nobody issued, broadcasts and channel management,
/// which are the default device's only) goes to the default device, which answers as Apple
/// does.
///
/// An index, token -> device: filled with a device's tokens when it is registered and kept
/// up to date as it issues more (`issued`, from `ActivityServer.open(tokenIssued:)`), so a
/// push finds its device in one lookup however many devices there are, and a push to a token
/// nobody issued costs no more than one to a real token.
package final class APNsDevices: Sendable {
    let fallback: APNsEndpoint

    private struct Index {
        var endpoints: [String: APNsEndpoint] = [:]
        var owners: [PushToken: String] = [:]
        /// Each device's tokens, so that removing a device removes them and nothing else.
        var tokensOf: [String: [PushToken]] = [:]

        mutating func add(_ token: PushToken, of device: String) {
            guard owners.updateValue(device, forKey: token) != device else { return }
            tokensOf[device, default: []].append(token)
        }
    }

    private let index = Mutex(Index())

    package init(default endpoint: APNsEndpoint) {
        fallback = endpoint
    }

    /// `device`'s endpoint answers the pushes to every token it issued so far, and to those
    /// it issues from now on.
    package func register(_ device: String, _ endpoint: APNsEndpoint) async {
        let tokens = await endpoint.issuedTokens()
        index.withLock { index in
            index.endpoints[device] = endpoint
            for token in tokens { index.add(token, of: device) }
        }
    }

    /// `device` issued `token` (called as it does, before anyone hears of the token).
    package func issued(_ token: PushToken, by device: String) {
        index.withLock { $0.add(token, of: device) }
    }

    /// `device` is closed or deleted: its tokens reach nothing any more.
    package func remove(_ device: String) {
        index.withLock { index in
            index.endpoints[device] = nil
            for token in index.tokensOf.removeValue(forKey: device) ?? [] where index.owners[token] == device {
                index.owners[token] = nil
            }
        }
    }

    /// The endpoint that answers `request`, and its device (nil: the default).
    package func endpoint(for request: APNsRequest) -> (device: String?, endpoint: APNsEndpoint) {
        guard let text = request.path.lastSegment(after: "/3/device/"), let token = PushToken(hex: text) else {
            return (nil, fallback)
        }
        return index.withLock { index in
            guard let owner = index.owners[token], let endpoint = index.endpoints[owner] else { return (nil, fallback) }
            return (owner, endpoint)
        }
    }
}
