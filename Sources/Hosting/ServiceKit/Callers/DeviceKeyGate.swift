package import RPCCore

/// A server transport that lets a call through to its handler only if it is an app's
/// (`authorization: Bearer …`, which the handler then checks) or carries the device key
/// (`authorization: Device <key>`). Any other call — no credential, a wrong key — ends
/// UNAUTHENTICATED before a handler sees it, on gRPC and on the JSON face alike. Health
/// and reflection stay open: healthchecks run without the key, and the schema is no secret.
package struct DeviceKeyGate: ServerTransport {
    package let base: any ServerTransport
    package let key: DeviceKey

    static let openServices: Set<String> = [
        "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
    ]

    package init(_ base: any ServerTransport, key: DeviceKey) {
        self.base = base
        self.key = key
    }

    package func listen(_ handler: @escaping @Sendable (ServerStream) async -> Void) async throws {
        let key = self.key
        try await base.listen { stream in
            if let refusal = Self.refusal(path: stream.head.path, metadata: stream.head.metadata, key: key) {
                stream.send(.status(Status(code: refusal.code, message: refusal.message), Metadata()), flush: true)
                return
            }
            await handler(stream)
        }
    }

    package func beginGracefulShutdown() { base.beginGracefulShutdown() }

    /// Why the call may not reach its handler, or nil.
    package static func refusal(path: String, metadata: Metadata, key: DeviceKey) -> RPCError? {
        if let service = MethodDescriptor(path: path)?.service, openServices.contains(service) { return nil }
        let credential: Caller.Credential
        do { credential = try Caller.credential(in: metadata) } catch { return error }
        switch credential {
        case .appToken: return nil
        case .deviceKey(let presented) where key.matches(presented): return nil
        case .deviceKey:
            return RPCError(
                code: .unauthenticated,
                message: "authorization: the device key does not match this stack's (--device-key)")
        case .none:
            return RPCError(
                code: .unauthenticated,
                message: "this stack requires the device key for device calls: send \"authorization: Device <key>\" "
                    + "(glimpse --device-key FILE, or GLIMPSE_DEVICE_KEY); apps send \"authorization: Bearer <app token>\""
            )
        }
    }
}
