import AssetEngine
import EngineHosting
import GlimpseMessages
package import GlimpseVocabulary
import ProtoMapping
import RPCCore
import AssetMapping

extension AssetState {
    /// An input, checked against the state: what `apply` carries out.
    enum Checked {
        case register(AppID, token: String)
        case unregister(AppID)
        case put(UploadSession.Verified)
        case remove(AssetName)
        case pin(AppID, holder: String, Set<AssetName>)
        case unpin(AppID, holder: String)
        case budget(Int)
        case lost(ContentHash)
    }

    /// Applies one journaled input. Deterministic given the state, the input and the clock
    /// (replay depends on it), in three steps:
    /// 1. every check, which throws with nothing changed (no journal row);
    /// 2. the reads since the previous record (`touched`), oldest first, which never fail:
    ///    recency decides what a put evicts, so it must replay exactly;
    /// 3. the change, which never throws: a put the catalog cannot fit (the rest pinned) is
    ///    the answer `.refused`, journaled with the reads it follows.
    package static func apply(
        _ state: inout AssetState, _ command: AssetCommand
    ) throws -> Step<AssetAnswer, AssetEffect> {
        let checked: Checked
        do { checked = try state.check(command.record) } catch let error as InvalidField { throw error.rpcError }
        state.touch(command.record.touched)
        return state.run(checked, upload: command.upload)
    }

    func check(_ record: GlimpseAssetV1.JournalRecord) throws -> Checked {
        switch record.input {
        case .registerApp(let request)?:
            guard let manifest = request.manifest else { throw InvalidField("manifest", "a manifest is required") }
            let app = try AssetWire.app(manifest.bundleId, field: "manifest.bundle_id")
            guard apps[app] == nil else {
                throw RPCError(code: .alreadyExists, message: "app \(app) is already registered")
            }
            guard !record.appToken.isEmpty, tokens[record.appToken] == nil else {
                throw RPCError(code: .internal, message: "no fresh app token")
            }
            return .register(app, token: record.appToken)
        case .unregister(let request)?:
            return .unregister(try registered(request.bundleId))
        case .put(let upload)?:
            _ = try registered(upload.bundleId)
            return .put(try AssetWire.verified(upload, in: catalog))
        case .remove(let request)?:
            let app = try registered(request.bundleId)
            return .remove(try known(request.name, of: app))
        case .pin(let request)?:
            let app = try registered(request.bundleId)
            guard !request.holder.isEmpty else {
                throw InvalidField("holder", "who pins is required (e.g. widget:<placement id>)")
            }
            var names = Set<AssetName>()
            for (i, text) in request.names.enumerated() { names.insert(try known(text, of: app, field: "names[\(i)]")) }
            return .pin(app, holder: request.holder, names)
        case .unpin(let request)?:
            let app = try registered(request.bundleId)
            guard !request.holder.isEmpty else { throw InvalidField("holder", "who pinned is required") }
            return .unpin(app, holder: request.holder)
        case .byteBudget(let bytes)?:
            guard let budget = Int(exactly: bytes), budget > 0 else {
                throw InvalidField("byte_budget", "\(bytes) bytes")
            }
            return .budget(budget)
        case .blobLost(let hex)?:
            return .lost(try AssetWire.hash(hex, field: "blob_lost"))
        case nil:
            throw RPCError(code: .invalidArgument, message: "an empty journal record")
        }
    }

    /// A registered app named in a request.
    func registered(_ bundleID: String) throws -> AppID {
        let app = try AssetWire.app(bundleID)
        guard apps[app] != nil else {
            throw RPCError(code: .notFound, message: "bundle_id: app \(app) is not registered")
        }
        return app
    }

    /// A name the app has (present or evicted).
    func known(_ text: String, of app: AppID, field: String = "name") throws -> AssetName {
        let name = try AssetWire.name(text, of: app, limits: catalog.limits, field: field)
        guard names[app]?.contains(name) == true else {
            throw RPCError(code: .notFound, message: "\(field): \(app) has no asset \(text)")
        }
        return name
    }

    /// Marks the names read since the previous record as read, oldest first.
    mutating func touch(_ touched: [String]) {
        for text in touched {
            guard let name = try? AssetName(text, maximumLength: catalog.limits.maximumNameLength) else { continue }
            _ = catalog.readPlan(name)  // touches a present blob; an unknown or evicted name is nothing to touch
        }
    }

    mutating func run(_ checked: Checked, upload: UploadID?) -> Step<AssetAnswer, AssetEffect> {
        switch checked {
        case .register(let app, let token):
            apps[app] = RegisteredApp(token: token)
            tokens[token] = app
            names[app] = []
            return Step(.registered(token: token))
        case .unregister(let app):
            var effects: [BlobEffect] = []
            for holder in apps[app]?.holders ?? [] { catalog.unpin(holder: Self.holder(app, holder)) }
            let removed = names[app] ?? []
            for name in removed.sorted() { effects += catalog.remove(name) }
            if let token = apps[app]?.token { tokens[token] = nil }
            apps[app] = nil
            names[app] = nil
            return Step(.unregistered(removedNames: removed.count), effects: Self.effects(effects, upload: nil))
        case .put(let verified):
            let step = catalog.commit(verified)
            switch step.answer {
            case .failure(let error): return Step(.refused(error))
            case .success(let outcome):
                names[AppID(verified.name.app), default: []].insert(verified.name)
                return Step(.stored(outcome), effects: Self.effects(step.effects, upload: upload))
            }
        case .remove(let name):
            let effects = catalog.remove(name)
            names[AppID(name.app)]?.remove(name)
            return Step(.deleted(blobDeleted: !effects.isEmpty), effects: Self.effects(effects, upload: nil))
        case .pin(let app, let holder, let pinned):
            catalog.pin(pinned, holder: Self.holder(app, holder))
            if pinned.isEmpty { apps[app]?.holders.remove(holder) } else { apps[app]?.holders.insert(holder) }
            let evicted = pinned.filter { if case .evicted = catalog.lookup($0) { true } else { false } }
            return Step(.pinned(evicted: evicted.sorted()))
        case .unpin(let app, let holder):
            let count = catalog.names(pinnedBy: Self.holder(app, holder)).count
            catalog.unpin(holder: Self.holder(app, holder))
            apps[app]?.holders.remove(holder)
            return Step(.released(count: count))
        case .budget(let bytes):
            return Step(.none, effects: Self.effects(catalog.setByteBudget(bytes), upload: nil))
        case .lost(let hash):
            catalog.blobLost(hash)
            return Step(.none, effects: [.delete(hash)])
        }
    }
}
