#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseMessages
package import GlimpseVocabulary
import ServiceKit
package import IntentEngine

/// Everything glimpse-intent knows, as one engine the host journals and replays: the
/// executor (catalogs, placements, idempotency ledger, App Group store), plus what the
/// service keeps beside it (registered apps with their manifests and tokens, and the
/// idempotency key of each handler call out).
package struct IntentState: Engine, AppTokenIndex {
    package struct RegisteredApp: Sendable, Hashable {
        package var manifest: GlimpseAppV1.AppManifest
        package var token: String
    }

    package var executor: IntentExecutor
    package internal(set) var apps: [AppID: RegisteredApp] = [:]
    var tokens: [String: AppID] = [:]
    /// Keys of taps on a handler intent that wait for their call, per target, in order.
    var pendingHandlerKeys: [TapTarget: [String]] = [:]
    /// The idempotency key of each handler call out.
    package internal(set) var callKeys: [CallID: String] = [:]
    /// The reloads taps asked for that glimpse-timeline has not taken yet, oldest first: kept
    /// (journaled with the tap that asked) until `reloadsDelivered`, so none is lost while
    /// glimpse-timeline is down or glimpse-intent restarts.
    package internal(set) var outbox: [PendingReload] = []
    var nextOutboxID: UInt64 = 1

    package init(executor: IntentExecutor) {
        self.executor = executor
    }

    /// The app an app token belongs to.
    package func app(forToken token: String) -> AppID? { tokens[token] }

    /// Whether `app` declared `group` among its App Groups.
    package func app(_ app: AppID, sharesGroup group: GroupID) -> Bool {
        apps[app]?.manifest.appGroups.contains(group.rawValue) ?? false
    }

    /// Where the app's IntentHandler for `intent` listens ("host:port"), if anywhere.
    package func handlerEndpoint(app: AppID, intent: String) -> String? {
        guard let manifest = apps[app]?.manifest,
            let declaration = manifest.intents.first(where: { $0.type == intent }),
            case .handlerEndpoint(let endpoint)? = declaration.action
        else { return nil }
        let resolved = endpoint.isEmpty || endpoint == "default" ? manifest.defaultEndpoint : endpoint
        return resolved.isEmpty ? nil : resolved
    }

    package mutating func nextDeadline() -> Date? { executor.nextDeadline() }

    package mutating func fireDue() -> [IntentEffect] { noted(executor.fireDue()) }

    /// Keeps the idempotency keys of handler calls, and the outbox of reloads, in step with
    /// the effects.
    mutating func noted(_ effects: [IntentEffect]) -> [IntentEffect] {
        // A tap's reloads come just before its completion, which names the tap.
        var asked: [Int] = []
        for effect in effects {
            switch effect {
            case .reloadPlacement, .reloadTimelines, .reloadAllTimelines:
                asked.append(outbox.count)
                outbox.append(PendingReload(id: nextOutboxID, reload: effect, tap: ""))
                nextOutboxID += 1
            case .completed(let completion) where !completion.replayed:
                for index in asked { outbox[index].tap = "\(completion.app)/\(completion.idempotencyKey)" }
                asked = []
                callKeys = callKeys.filter { $0.value != completion.idempotencyKey }
            case .callHandler(let call):
                if var keys = pendingHandlerKeys[call.target], !keys.isEmpty {
                    callKeys[call.id] = keys.removeFirst()
                    pendingHandlerKeys[call.target] = keys.isEmpty ? nil : keys
                }
            case .cancelHandlerCall(let id):
                callKeys[id] = nil
            default: break
            }
        }
        return effects
    }
}

/// A reload a tap asked for, waiting for glimpse-timeline to take it.
package struct PendingReload: Sendable, Hashable, Codable {
    package var id: UInt64
    /// `.reloadPlacement`, `.reloadTimelines` or `.reloadAllTimelines`.
    package var reload: IntentEffect
    /// The tap that asked ("app/idempotency key").
    package var tap: String

    /// What glimpse-timeline knows the request by, so that a retry is applied once.
    package var requestID: String { "intent/\(tap)/\(id)" }
}
