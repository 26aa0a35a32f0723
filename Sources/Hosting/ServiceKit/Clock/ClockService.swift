#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import EngineHosting
package import GlimpseMessages
import GlimpseRPC
import ProtoMapping
package import RPCCore
package import GlimpseVocabulary
import ServiceLifecycle

/// `glimpse.clock.v1.Clock` for any service on the engine host: with `--clock manual` the
/// gateway conducts time through it; on a system clock AdvanceTo is FAILED_PRECONDITION.
/// `watermark` is the sequence of the last event the service has streamed.
package struct ClockService<E: Engine, C: HostCommand>: GlimpseClockV1.Clock.Handler {
    let host: EngineHost<E, C>
    let watermark: @Sendable () -> UInt64

    package init(host: EngineHost<E, C>, watermark: @escaping @Sendable () -> UInt64) {
        self.host = host
        self.watermark = watermark
    }

    package func now(
        request: ServerRequest<GlimpseClockV1.NowRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseClockV1.NowResponse> {
        ServerResponse(
            message: GlimpseClockV1.NowResponse(
                now: GoogleProtobuf.Timestamp(host.clock.now), manual: host.clock.isManual))
    }

    package func nextDue(
        request: ServerRequest<GlimpseClockV1.NextDueRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseClockV1.NextDueResponse> {
        let next = await host.nextDue()
        return ServerResponse(message: GlimpseClockV1.NextDueResponse(nextDue: next.map(GoogleProtobuf.Timestamp.init)))
    }

    package func advanceTo(
        request: ServerRequest<GlimpseClockV1.AdvanceToRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseClockV1.AdvanceToResponse> {
        try Caller.requireDevice(context.requestMetadata, "moving the clock")
        guard host.clock.isManual else {
            throw RPCError(
                code: .failedPrecondition,
                message: "this service follows the system clock (start it with --clock manual)")
        }
        guard let wire = request.message.to else { throw InvalidField("to", "an instant is required").rpcError }
        let target: Date
        do { target = try wire.date(field: "to") } catch { throw error.rpcError }
        guard target >= host.clock.now else {
            throw RPCError(
                code: .invalidArgument,
                message: "to: \(target) is before now (\(host.clock.now)); the clock never goes back")
        }
        try await host.advance(to: target)
        return ServerResponse(
            message: GlimpseClockV1.AdvanceToResponse(
                now: GoogleProtobuf.Timestamp(host.clock.now), watermark: watermark()))
    }
}

/// An engine host's timer (system clock) as a service of the group: it runs until the
/// graceful shutdown. Every service adds one for its host.
package struct EngineHostTimer<E: Engine, C: HostCommand>: Service {
    let host: EngineHost<E, C>

    package init(host: EngineHost<E, C>) {
        self.host = host
    }

    package func run() async throws {
        try await cancelWhenGracefulShutdown { try await host.run() }
    }
}
