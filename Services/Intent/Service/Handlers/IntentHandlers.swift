#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseVocabulary
package import EngineHosting
package import GlimpseMessages
import GlimpseRPC
package import IntentEngine
import ProtoMapping
package import RPCCore
import ServiceKit

/// `glimpse.intent.v1.IntentService`: each call checks its caller, goes through the one
/// engine host (journaled before it is answered), and maps the executor's answer back.
///
/// Refusals of a tap: NOT_INTERACTIVE (accessoryInline) and DEVICE_LOCKED are
/// FAILED_PRECONDITION with the refusal's words and its reason typed (an ErrorInfo in
/// `grpc-status-details-bin`, reason `NOT_INTERACTIVE` or `DEVICE_LOCKED`, domain
/// `glimpse.intent.v1.Refusal`), as the contract says; an unknown app or
/// placement is NOT_FOUND and another app's placement PERMISSION_DENIED; every other
/// refusal (unknown intent, kind without the button, parameters) is an OK answer with
/// `refused` and its reason. Each is recorded under the tap's key, so a retry with the
/// same key gets the same answer.
package struct IntentHandlers: GlimpseIntentV1.IntentService.Handler {
    package typealias Host = EngineHost<IntentState, IntentCommand>
    let host: Host
    let feed: StoreFeed
    let waiters: TapWaiters

    package init(host: Host, feed: StoreFeed, waiters: TapWaiters) {
        self.host = host
        self.feed = feed
        self.waiters = waiters
    }

    /// Refuses an app that reaches for an App Group it did not declare.
    func authorize(group: String, _ caller: Caller) async throws {
        guard !group.isEmpty else { throw InvalidField("app_group", "an App Group is required").rpcError }
        guard case .app(let app) = caller else { return }
        guard await host.read({ $0.app(app, sharesGroup: GroupID(group)) }) else {
            throw RPCError(code: .permissionDenied, message: "\(app) is not in App Group \(group)")
        }
    }

    // MARK: Apps and placements

    package func registerApp(
        request: ServerRequest<GlimpseIntentV1.RegisterAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.RegisterAppResponse> {
        try await host.caller(request.metadata).requireDevice("registering an app")
        let token = Caller.newAppToken()
        _ = try await host.submit(IntentCommand(.registerApp(request.message), appToken: token))
        return ServerResponse(message: GlimpseIntentV1.RegisterAppResponse(appToken: token))
    }

    package func unregisterApp(
        request: ServerRequest<GlimpseIntentV1.UnregisterAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.UnregisterAppResponse> {
        try await host.caller(request.metadata).authorize(AppID(request.message.bundleId))
        _ = try await host.submit(IntentCommand(.unregister(request.message)))
        return ServerResponse(message: GlimpseIntentV1.UnregisterAppResponse())
    }

    package func placementAdded(
        request: ServerRequest<GlimpseIntentV1.PlacementAddedRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.PlacementAddedResponse> {
        try await host.caller(request.metadata).requireDevice("adding a placement")
        _ = try await host.submit(IntentCommand(.placementAdded(request.message)))
        return ServerResponse(message: GlimpseIntentV1.PlacementAddedResponse())
    }

    package func placementRemoved(
        request: ServerRequest<GlimpseIntentV1.PlacementRemovedRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.PlacementRemovedResponse> {
        try await host.caller(request.metadata).requireDevice("removing a placement")
        _ = try await host.submit(IntentCommand(.placementRemoved(request.message)))
        return ServerResponse(message: GlimpseIntentV1.PlacementRemovedResponse())
    }

    package func setDeviceLocked(
        request: ServerRequest<GlimpseIntentV1.SetDeviceLockedRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.SetDeviceLockedResponse> {
        try await host.caller(request.metadata).requireDevice("locking the device")
        _ = try await host.submit(IntentCommand(.deviceLocked(request.message)))
        return ServerResponse(message: GlimpseIntentV1.SetDeviceLockedResponse())
    }

    // MARK: Taps

    package func perform(
        request: ServerRequest<GlimpseIntentV1.PerformRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.PerformResponse> {
        let message = request.message
        try await host.caller(request.metadata).authorize(AppID(message.bundleId))
        let completion = try await Self.perform(message, host: host, waiters: waiters)
        return ServerResponse(message: try Self.response(completion))
    }

    /// Submits a tap and waits for its completion: at once, or when its handler call (or
    /// the first tap with its key, still running) answers.
    package static func perform(
        _ message: GlimpseIntentV1.PerformRequest, host: Host, waiters: TapWaiters
    ) async throws -> TapCompletion {
        // Subscribed before the submit: the completion may come while it performs.
        let completions = waiters.subscribe(app: AppID(message.bundleId), key: message.idempotencyKey)
        if case .tap(let completion?) = try await host.submit(IntentCommand(.perform(message))) {
            return completion
        }
        for await completion in completions { return completion }
        throw RPCError(code: .unavailable, message: "the service is shutting down")
    }

    /// A completion as the Perform answer, or the status the contract gives its refusal.
    package static func response(_ completion: TapCompletion) throws(RPCError) -> GlimpseIntentV1.PerformResponse {
        var response = GlimpseIntentV1.PerformResponse()
        response.replayed = completion.replayed
        switch completion.result {
        case .performed(let value):
            response.result = .performed(GlimpseIntentV1.PerformResponse.Performed(value: value?.wire))
            response.reloadedPlacements = completion.reloaded.map(\.rawValue)
        case .failed(let failure):
            response.result = .failed(GlimpseIntentV1.PerformResponse.Failed(message: "\(failure)"))
            response.reloadedPlacements = completion.reloaded.map(\.rawValue)
        case .refused(let refusal):
            let reason: GlimpseIntentV1.Refusal
            switch refusal {
            case .notInteractive(let family):
                throw RPCError(
                    code: .failedPrecondition, message: "NOT_INTERACTIVE: buttons and toggles are refused on \(family)",
                    reason: GlimpseIntentV1.Refusal.notInteractive, metadata: ["family": family.rawValue])
            case .deviceLocked:
                throw RPCError(
                    code: .failedPrecondition, message: "DEVICE_LOCKED: interactive widgets are inactive until unlock",
                    reason: GlimpseIntentV1.Refusal.deviceLocked)
            case .unknownApp(let app): throw RPCError(code: .notFound, message: "app \(app) is not registered")
            case .unknownPlacement(let id): throw RPCError(code: .notFound, message: "no placement \(id)")
            case .placementOfAnotherApp(let id):
                throw RPCError(code: .permissionDenied, message: "placement \(id) belongs to another app")
            case .unknownIntent: reason = .unknownIntent
            case .notOfferedByKind: reason = .notOfferedByKind
            case .notOfferedByActivity: reason = .notOfferedByActivity
            case .missingParameter: reason = .missingParameter
            case .unknownParameter: reason = .unknownParameter
            case .parameterTypeMismatch: reason = .parameterTypeMismatch
            }
            response.result = .refused(GlimpseIntentV1.PerformResponse.Refused(reason: reason, message: "\(refusal)"))
        }
        return response
    }

    // MARK: The App Group store

    package func get(
        request: ServerRequest<GlimpseIntentV1.GetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.GetResponse> {
        let message = request.message
        try await authorize(group: message.appGroup, try await host.caller(request.metadata))
        let entry = await host.read { $0.executor.store.entry(message.key, in: GroupID(message.appGroup)) }
        return ServerResponse(message: GlimpseIntentV1.GetResponse(entry: entry.map { Self.entry(message.key, $0) }))
    }

    package func set(
        request: ServerRequest<GlimpseIntentV1.SetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.WriteResponse> {
        try await authorize(group: request.message.appGroup, try await host.caller(request.metadata))
        return ServerResponse(message: try await write(.set(request.message)))
    }

    package func remove(
        request: ServerRequest<GlimpseIntentV1.RemoveRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.WriteResponse> {
        try await authorize(group: request.message.appGroup, try await host.caller(request.metadata))
        return ServerResponse(message: try await write(.remove(request.message)))
    }

    package func compareAndSet(
        request: ServerRequest<GlimpseIntentV1.CompareAndSetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.WriteResponse> {
        try await authorize(group: request.message.appGroup, try await host.caller(request.metadata))
        return ServerResponse(message: try await write(.compareAndSet(request.message)))
    }

    func write(_ input: GlimpseIntentV1.JournalRecord.Input) async throws -> GlimpseIntentV1.WriteResponse {
        guard case .written(let sequence) = try await host.submit(IntentCommand(input)) else {
            throw RPCError(code: .internal, message: "a write answered nothing")
        }
        return GlimpseIntentV1.WriteResponse(sequence: sequence)
    }

    package func list(
        request: ServerRequest<GlimpseIntentV1.ListRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.ListResponse> {
        let group = GroupID(request.message.appGroup)
        try await authorize(group: group.rawValue, try await host.caller(request.metadata))
        let (entries, sequence) = await host.read { state in
            (Self.entries(state.executor.store.snapshot(of: group)), state.executor.store.sequence(of: group))
        }
        return ServerResponse(message: GlimpseIntentV1.ListResponse(entries: entries, sequence: sequence))
    }

    package func watch(
        request: ServerRequest<GlimpseIntentV1.WatchRequest>,
        response: ResponseWriter<GlimpseIntentV1.StoreChange>, context: ServerContext
    ) async throws -> Metadata {
        let group = GroupID(request.message.appGroup)
        try await authorize(group: group.rawValue, try await host.caller(request.metadata))
        var cursor = request.message.sinceSequence
        while true {
            let signals = feed.subscribe()  // before the first read: nothing falls between the two
            cursor = try await send(changesOf: group, since: cursor, to: response)
            do {
                for try await batch in signals
                where batch.contains(where: { $0.group == group && $0.sequence > cursor }) {
                    cursor = try await send(changesOf: group, since: cursor, to: response)
                }
                return Metadata()
            } catch is FellBehind {
                // Only signals were lost: the changes are in the store's log; read on from
                // the cursor, as a reconnecting client would.
                continue
            }
        }
    }

    /// Writes the group's changes after `cursor` (or a resync with a snapshot); returns the new cursor.
    func send(
        changesOf group: GroupID, since cursor: UInt64, to response: ResponseWriter<GlimpseIntentV1.StoreChange>
    ) async throws -> UInt64 {
        let now = GoogleProtobuf.Timestamp(host.clock.now)
        let (changes, latest) = await host.read { state -> ([GlimpseIntentV1.StoreChange], UInt64) in
            let store = state.executor.store
            switch store.changes(in: group, since: cursor) {
            case .changes(let changes, let latest):
                return (
                    changes.map { change in
                        var wire = GlimpseIntentV1.StoreChange()
                        wire.sequence = change.sequence
                        wire.key = change.key
                        wire.value = change.value?.wire
                        wire.at = now
                        return wire
                    }, latest
                )
            case .resync(let latest):
                var wire = GlimpseIntentV1.StoreChange()
                wire.sequence = latest
                wire.resync = true
                wire.snapshot = Self.entries(store.snapshot(of: group))
                wire.at = now
                return ([wire], latest)
            }
        }
        try await response.write(contentsOf: changes)
        return latest
    }

    // MARK: Helpers

    static func entry(_ key: String, _ entry: AppGroupStore.Entry) -> GlimpseIntentV1.Entry {
        GlimpseIntentV1.Entry(key: key, value: entry.value.wire, version: entry.version)
    }

    static func entries(_ snapshot: [String: AppGroupStore.Entry]) -> [GlimpseIntentV1.Entry] {
        snapshot.keys.sorted().map { entry($0, snapshot[$0]!) }
    }

}
