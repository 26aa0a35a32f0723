package import GlimpseVocabulary
package import EngineHosting
package import RPCCore

/// Who is calling a service: the device (the gateway, a script: no app token) or an app
/// (its token, `authorization: Bearer …`). An app reaches only what is its own — kinds,
/// placements, intents, App Groups; the device does what only the device may.
package enum Caller: Sendable, Hashable {
    case device
    case app(AppID)

    /// What a request's `authorization` carries.
    package enum Credential: Sendable, Hashable {
        /// Nothing: the device's call on a stack without a device key.
        case none
        /// `Bearer <app token>`: an app.
        case appToken(String)
        /// `Device <key>`: the device, on a stack with a device key (see `DeviceKey`).
        case deviceKey(Substring)
    }

    /// The credential of a request; an `authorization` of another form is UNAUTHENTICATED.
    package static func credential(in metadata: Metadata) throws(RPCError) -> Credential {
        let values = metadata[stringValues: "authorization"]
        guard let value = values.first else { return .none }
        guard values.count == 1 else {
            throw RPCError(code: .unauthenticated, message: "authorization: given \(values.count) times; send one")
        }
        let parts = value.split(separator: " ", maxSplits: 1)
        if parts.count == 2, !parts[1].isEmpty {
            switch parts[0].lowercased() {
            case "bearer": return .appToken(String(parts[1]))
            case DeviceKey.scheme.lowercased(): return .deviceKey(parts[1])
            default: break
            }
        }
        throw RPCError(
            code: .unauthenticated, message: "authorization: expected \"Bearer <app token>\" or \"Device <device key>\""
        )
    }

    /// The bearer token of a request, if it carries one (a device key is no app's token).
    package static func token(in metadata: Metadata) throws(RPCError) -> String? {
        if case .appToken(let token) = try credential(in: metadata) { return token }
        return nil
    }

    /// Refuses a call that carries an app token where only the device may call: writes
    /// (installing, placing, settings, the clock) and reads of what the device shows of
    /// every app (the screen, push tokens, the event log).
    package static func requireDevice(_ metadata: Metadata, _ what: String) throws(RPCError) {
        if try token(in: metadata) != nil {
            throw RPCError(
                code: .permissionDenied, message: "\(what) is the device's to do; an app token does not reach it")
        }
    }

    /// Refuses an app that asks about another app.
    package func authorize(_ app: AppID) throws(RPCError) {
        if case .app(let caller) = self, caller != app {
            throw RPCError(code: .permissionDenied, message: "the app token of \(caller) does not reach \(app)")
        }
    }

    /// Refuses an app where only the device may act (installing, placing, device settings).
    package func requireDevice(_ what: String) throws(RPCError) {
        if case .app(let app) = self {
            throw RPCError(code: .permissionDenied, message: "\(what) is the device's to do, not \(app)'s")
        }
    }

    /// Which app's things a listing or a watch reaches: nil (every app's) when the device
    /// asks without naming one; an app reaches only its own, and naming another is
    /// PERMISSION_DENIED.
    package func scope(requested: String) throws(RPCError) -> AppID? {
        switch self {
        case .device: return requested.isEmpty ? nil : AppID(requested)
        case .app(let app):
            try authorize(requested.isEmpty ? app : AppID(requested))
            return app
        }
    }

    /// A fresh app token: 256 random bits, hex.
    package static func newAppToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }
}

/// An engine whose apps hold tokens: what `EngineHost.caller(_:)` needs.
package protocol AppTokenIndex {
    /// The app an app token belongs to.
    func app(forToken token: String) -> AppID?
}

extension EngineHost where E: AppTokenIndex {
    /// Who is calling: the device (no token) or the app whose token the request carries;
    /// a token no app holds is UNAUTHENTICATED.
    package func caller(_ metadata: Metadata) async throws -> Caller {
        guard let token = try Caller.token(in: metadata) else { return .device }
        guard let app = read({ $0.app(forToken: token) }) else {
            throw RPCError(code: .unauthenticated, message: "unknown app token")
        }
        return .app(app)
    }
}
