#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import AssetEngine
package import GlimpseVocabulary
import ServiceKit

/// Everything glimpse-asset knows, as one engine the host journals and replays: the
/// catalog (names, blobs, recency, pins, the byte budget), plus what the service keeps
/// beside it (registered apps with their tokens and pin holders, and each app's names).
///
/// Invariants: `names[app]` is exactly the catalog's names whose app segment is `app`
/// (present or evicted); an app's holders pin only that app's names.
package struct AssetState: Engine, AppTokenIndex {
    package struct RegisteredApp: Sendable, Hashable, Codable {
        package var token: String
        /// The holders (as the app named them) that pin something now.
        package var holders: Set<String> = []
    }

    package var catalog: AssetCatalog
    package internal(set) var apps: [AppID: RegisteredApp] = [:]
    var tokens: [String: AppID] = [:]
    /// Each app's names, present or evicted.
    package internal(set) var names: [AppID: Set<AssetName>] = [:]

    package init(catalog: AssetCatalog) {
        self.catalog = catalog
    }

    /// The app an app token belongs to.
    package func app(forToken token: String) -> AppID? { tokens[token] }

    package func isRegistered(_ app: AppID) -> Bool { apps[app] != nil }

    /// The catalog's holder for an app's holder name: apps never share holders.
    static func holder(_ app: AppID, _ name: String) -> HolderID { HolderID(app.rawValue + "/" + name) }

    /// Every present blob and its size: what the blob directory must hold.
    package var presentBlobs: [ContentHash: Int] {
        var blobs: [ContentHash: Int] = [:]
        for set in names.values {
            for name in set {
                if case .present(let metadata) = catalog.lookup(name) { blobs[metadata.hash] = metadata.size }
            }
        }
        return blobs
    }

    package mutating func nextDeadline() -> Date? { catalog.nextDeadline() }

    package mutating func fireDue() -> [AssetEffect] { Self.effects(catalog.fireDue(), upload: nil) }

    /// The catalog's blob work as the service carries it out: a commit renames the put's
    /// staging file; a discard is the put handler's own (it removes what it staged).
    static func effects(_ blob: [BlobEffect], upload: UploadID?) -> [AssetEffect] {
        blob.compactMap { effect in
            switch effect {
            case .commitStaged(let hash): .commit(hash, upload: upload)
            case .delete(let hash): .delete(hash)
            case .discardStaged: nil
            }
        }
    }
}
