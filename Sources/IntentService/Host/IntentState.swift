#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import GlimpseMessages
public import GlimpseVocabulary
public import ServiceKit
public import IntentEngine

/// Everything glimpse-intent knows, as one engine the host journals and replays: the
/// executor (catalogs, placements, idempotency ledger, App Group store), plus what the
/// service keeps beside it (registered apps with their manifests and tokens, and the
/// idempotency key of each handler call out).
public struct IntentState: Engine, AppTokenIndex {
    public struct RegisteredApp: Sendable, Hashable {
        public var manifest: GlimpseAppV1.AppManifest
        public var token: String
    }

    public var executor: IntentExecutor
    public internal(set) var apps: [AppID: RegisteredApp] = [:]
    var tokens: [String: AppID] = [:]
    /// Keys of taps on a handler intent that wait for their call, per target, in order.
    var pendingHandlerKeys: [TapTarget: [String]] = [:]
    /// The idempotency key of each handler call out.
    public internal(set) var callKeys: [CallID: String] = [:]

    public init(executor: IntentExecutor) {
        self.executor = executor
    }

    /// The app an app token belongs to.
    public func app(forToken token: String) -> AppID? { tokens[token] }

    /// Whether `app` declared `group` among its App Groups.
    public func app(_ app: AppID, sharesGroup group: GroupID) -> Bool {
        apps[app]?.manifest.appGroups.contains(group.rawValue) ?? false
    }

    /// Where the app's IntentHandler for `intent` listens ("host:port"), if anywhere.
    public func handlerEndpoint(app: AppID, intent: String) -> String? {
        guard let manifest = apps[app]?.manifest,
              let declaration = manifest.intents.first(where: { $0.type == intent }),
              case .handlerEndpoint(let endpoint)? = declaration.action else { return nil }
        let resolved = endpoint.isEmpty || endpoint == "default" ? manifest.defaultEndpoint : endpoint
        return resolved.isEmpty ? nil : resolved
    }

    public mutating func nextDeadline() -> Date? { executor.nextDeadline() }

    public mutating func fireDue() -> [IntentEffect] { noted(executor.fireDue()) }

    /// Keeps the idempotency keys of handler calls in step with the effects.
    mutating func noted(_ effects: [IntentEffect]) -> [IntentEffect] {
        for effect in effects {
            switch effect {
            case .callHandler(let call):
                if var keys = pendingHandlerKeys[call.target], !keys.isEmpty {
                    callKeys[call.id] = keys.removeFirst()
                    pendingHandlerKeys[call.target] = keys.isEmpty ? nil : keys
                }
            case .completed(let completion) where !completion.replayed:
                callKeys = callKeys.filter { $0.value != completion.idempotencyKey }
            case .cancelHandlerCall(let id):
                callKeys[id] = nil
            default: break
            }
        }
        return effects
    }
}
