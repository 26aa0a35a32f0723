package import GlimpseMessages
import GlimpseRPC
package import RPCCore

/// What every Glimpse server serves besides its own services: `grpc.health.v1.Health`
/// and server reflection (`grpc.reflection.v1` and `v1alpha`).
package enum StandardServices {
    /// The given services plus health and reflection. Reflection lists them all and
    /// answers from `descriptors` (the generated `…Descriptors.files` of each module the
    /// server uses); every service starts `initialStatus` in `health` (SERVING unless the
    /// server says when it is ready, as `ServiceRunner` does).
    package static func adding(
        to services: [any RPCService], serviceNames: [String],
        descriptors: [ProtoFileDescriptor], health: HealthStatusStore,
        initialStatus: HealthStatusStore.Status = .serving
    ) -> [any RPCService] {
        let standard = [
            GrpcHealthV1.Health.name, GrpcReflectionV1.ServerReflection.name,
            GrpcReflectionV1alpha.ServerReflection.name,
        ]
        let all = serviceNames + standard
        for name in all { health.set(initialStatus, for: name) }
        health.set(initialStatus, for: "")
        let index = ReflectionIndex(files: GlimpseMessagesDescriptors.files + descriptors, services: all)
        return services + [
            HealthService(store: health), ReflectionService(index: index), ReflectionServiceV1Alpha(index: index),
        ]
    }
}
