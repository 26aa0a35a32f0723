#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import AssetEngine
public import GlimpseVocabulary
public import ServiceKit

/// Everything glimpse-asset knows, as one engine the host journals and replays: the
/// catalog (names, blobs, recency, pins, the byte budget), plus what the service keeps
/// beside it (registered apps with their tokens and pin holders, and each app's names).
///
/// Invariants: `names[app]` is exactly the catalog's names whose app segment is `app`
/// (present or evicted); an app's holders pin only that app's names.
public struct AssetState: Engine, AppTokenIndex {
    public struct RegisteredApp: Sendable, Hashable, Codable {
        public var token: String
        /// The holders (as the app named them) that pin something now.
        public var holders: Set<String> = []
    }

    public var catalog: AssetCatalog
    public internal(set) var apps: [AppID: RegisteredApp] = [:]
    var tokens: [String: AppID] = [:]
    /// Each app's names, present or evicted.
    public internal(set) var names: [AppID: Set<AssetName>] = [:]

    public init(catalog: AssetCatalog) {
        self.catalog = catalog
    }

    /// The app an app token belongs to.
    public func app(forToken token: String) -> AppID? { tokens[token] }

    public func isRegistered(_ app: AppID) -> Bool { apps[app] != nil }

    /// The catalog's holder for an app's holder name: apps never share holders.
    static func holder(_ app: AppID, _ name: String) -> HolderID { HolderID(app.rawValue + "/" + name) }

    /// Every present blob and its size: what the blob directory must hold.
    public var presentBlobs: [ContentHash: Int] {
        var blobs: [ContentHash: Int] = [:]
        for set in names.values {
            for name in set {
                if case .present(let metadata) = catalog.lookup(name) { blobs[metadata.hash] = metadata.size }
            }
        }
        return blobs
    }

    public mutating func nextDeadline() -> Date? { catalog.nextDeadline() }

    public mutating func fireDue() -> [AssetEffect] { Self.effects(catalog.fireDue(), upload: nil) }

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
