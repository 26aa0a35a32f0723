public import GlimpseVocabulary
public import RPCCore

/// Who is calling a service: the device (the gateway, a script: no app token) or an app
/// (its token, `authorization: Bearer …`). An app reaches only what is its own — kinds,
/// placements, intents, App Groups; the device does what only the device may.
public enum Caller: Sendable, Hashable {
    case device
    case app(AppID)

    /// The bearer token of a request, if it carries one.
    public static func token(in metadata: Metadata) throws(RPCError) -> String? {
        guard let value = metadata[stringValues: "authorization"].first else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw RPCError(code: .unauthenticated, message: "authorization: expected \"Bearer <app token>\"")
        }
        return String(parts[1])
    }

    /// Refuses an app that asks about another app.
    public func authorize(_ app: AppID) throws(RPCError) {
        if case .app(let caller) = self, caller != app {
            throw RPCError(code: .permissionDenied, message: "the app token of \(caller) does not reach \(app)")
        }
    }

    /// Refuses an app where only the device may act (installing, placing, device settings).
    public func requireDevice(_ what: String) throws(RPCError) {
        if case .app(let app) = self {
            throw RPCError(code: .permissionDenied, message: "\(what) is the device's to do, not \(app)'s")
        }
    }
}
