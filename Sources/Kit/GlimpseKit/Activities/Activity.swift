public import Foundation
import GlimpseMessages
import GlimpseRPC
import NIOPosix
import RPCCore
import RPCNIO
import Synchronization

/// ActivityKit's `ActivityContent`: a content state with its stale date and relevance.
public struct ActivityContent<State: Codable & Hashable> {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double
    public init(state: State, staleDate: Date?, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// `pushType:` of a request: an update token, or a broadcast channel.
public enum PushType: Sendable, Hashable {
    case token
    case channel(String)
}

public enum ActivityState: Sendable, Hashable {
    case pending, active, stale, ended, dismissed

    init(_ wire: GlimpseActivityV1.ActivityState) {
        switch wire {
        case .pending: self = .pending
        case .stale: self = .stale
        case .ended: self = .ended
        case .dismissed: self = .dismissed
        default: self = .active
        }
    }
}

/// How long an ended activity stays on the Lock Screen.
public struct ActivityUIDismissalPolicy: Sendable {
    let wire: GlimpseActivityV1.DismissalPolicy
    public static let `default` = ActivityUIDismissalPolicy(wire: .init(policy: .defaultPolicy(true)))
    public static let immediate = ActivityUIDismissalPolicy(wire: .init(policy: .immediate(true)))
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy {
        ActivityUIDismissalPolicy(wire: .init(policy: .after(.init(date: date))))
    }
}

/// What ActivityKit throws: the device's refusal, in its words.
public struct ActivityAuthorizationError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// ActivityKit's `Activity`: request, update and end a Live Activity of this app through
/// the gateway (ActivityKit scope, the app token). `activities` is this app's, as the
/// device last said (refreshed by each call and before each intent's `perform()`).
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
    public let id: String
    public let attributes: Attributes
    private let lock = NSLock()
    private var current: (content: ActivityContent<Attributes.ContentState>, activityState: ActivityState, token: Data?)

    init(
        id: String, attributes: Attributes, content: ActivityContent<Attributes.ContentState>,
        wire: GlimpseActivityV1.Activity
    ) {
        self.id = id
        self.attributes = attributes
        current = (content, ActivityState(wire.state), Self.token(wire.pushToken))
    }

    public var content: ActivityContent<Attributes.ContentState> { lock.withLock { current.content } }
    public var contentState: Attributes.ContentState { content.state }
    public var activityState: ActivityState { lock.withLock { current.activityState } }
    /// The update push token (requested with `pushType: .token`).
    public var pushToken: Data? { lock.withLock { current.token } }

    static var typeName: String { String(describing: Attributes.self) }

    /// The app's activities of this attributes type.
    public static var activities: [Activity<Attributes>] {
        ActivityDirectory.shared.activities(of: Attributes.self)
    }

    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        let encoder = Self.encoder
        var request = GlimpseActivityV1.RequestActivityRequest()
        request.attributesType = typeName
        request.attributesJson = String(decoding: try encoder.encode(attributes), as: UTF8.self)
        request.content = try wireContent(content)
        switch pushType {
        case .token?: request.pushType = .token(true)
        case .channel(let id)?: request.pushType = .channelId(id)
        case nil: break
        }
        let message = request
        let answer = try Blocking.run {
            try await ActivityDirectory.shared.call { client, metadata in
                try await client.request(ClientRequest(message: message, metadata: metadata), options: .appCall).message
            }
        }
        guard let activity = answer.activity else { throw ActivityAuthorizationError(description: "no activity") }
        return ActivityDirectory.shared.remember(activity, attributes: attributes, content: content)
    }

    /// iOS 16.1's `request(attributes:contentState:pushType:)`.
    public static func request(
        attributes: Attributes, contentState: Attributes.ContentState, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        try request(
            attributes: attributes, content: ActivityContent(state: contentState, staleDate: nil), pushType: pushType)
    }

    public func update(_ content: ActivityContent<Attributes.ContentState>) async {
        guard let wireContent = try? Self.wireContent(content) else { return }
        let request = GlimpseActivityV1.UpdateActivityRequest(activityId: id, content: wireContent)
        await change(content) { client, metadata in
            try await client.update(ClientRequest(message: request, metadata: metadata), options: .appCall).message
        }
    }

    /// iOS 16.1's `update(using:)`.
    public func update(using contentState: Attributes.ContentState) async {
        await update(ActivityContent(state: contentState, staleDate: nil))
    }

    public func end(
        _ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default
    )
        async
    {
        var request = GlimpseActivityV1.EndActivityRequest(activityId: id, dismissalPolicy: dismissalPolicy.wire)
        if let content { request.content = try? Self.wireContent(content) }
        let message = request
        await change(content) { client, metadata in
            try await client.end(ClientRequest(message: message, metadata: metadata), options: .appCall).message
        }
    }

    /// iOS 16.1's `end(using:dismissalPolicy:)`.
    public func end(
        using contentState: Attributes.ContentState? = nil, dismissalPolicy: ActivityUIDismissalPolicy = .default
    )
        async
    {
        await end(contentState.map { ActivityContent(state: $0, staleDate: nil) }, dismissalPolicy: dismissalPolicy)
    }

    /// An update or end: the device's answer becomes this activity's state; a refusal is
    /// said on standard error (ActivityKit's update and end do not throw either).
    private func change(
        _ content: ActivityContent<Attributes.ContentState>?,
        _ call:
            @escaping @Sendable (GlimpseGatewayV1.ActivityKit.Client, Metadata) async throws ->
            GlimpseActivityV1
            .ChangeResponse
    ) async {
        do {
            let answer = try await ActivityDirectory.shared.call(call)
            lock.withLock {
                if let content { current.content = content }
                if let activity = answer.activity { current.activityState = ActivityState(activity.state) }
            }
        } catch {
            FileHandle.standardError.write(Data("Activity \(id): \(error)\n".utf8))
        }
    }

    func refresh(from wire: GlimpseActivityV1.Activity) {
        let content = wire.content.flatMap { try? Self.content(from: $0) }
        lock.withLock {
            if let content { current.content = content }
            current.activityState = ActivityState(wire.state)
            current.token = Self.token(wire.pushToken)
        }
    }

    /// Keys sorted: the same state is the same JSON in every run (a dictionary's order is
    /// seeded per process), so a scripted day replays byte for byte.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    static func wireContent(_ content: ActivityContent<Attributes.ContentState>) throws -> GlimpseActivityV1.Content {
        var wire = GlimpseActivityV1.Content(
            stateJson: String(decoding: try encoder.encode(content.state), as: UTF8.self),
            relevanceScore: content.relevanceScore)
        if let stale = content.staleDate { wire.staleDate = .init(date: stale) }
        return wire
    }

    static func content(from wire: GlimpseActivityV1.Content) throws -> ActivityContent<Attributes.ContentState> {
        ActivityContent(
            state: try JSONDecoder().decode(Attributes.ContentState.self, from: Data(wire.stateJson.utf8)),
            staleDate: wire.staleDate?.date, relevanceScore: wire.relevanceScore)
    }

    static func token(_ hex: String) -> Data? {
        guard !hex.isEmpty, hex.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return Data(bytes)
    }
}

/// The app's Live Activities as the device last listed them, by id (one `Activity` object
/// per activity, as ActivityKit hands out).
final class ActivityDirectory: Sendable {
    static let shared = ActivityDirectory()
    private let known = Mutex<[String: any Sendable]>([:])
    private let listed = Mutex<[GlimpseActivityV1.Activity]>([])

    func call<Answer: Sendable>(
        _ call: @Sendable (GlimpseGatewayV1.ActivityKit.Client, Metadata) async throws -> Answer
    ) async throws -> Answer {
        guard let link = GatewayLink.current.withLock({ $0 }) else {
            throw ActivityAuthorizationError(description: "not serving: no gateway to reach (GlimpseApp.serve)")
        }
        let client = GlimpseGatewayV1.ActivityKit.Client(wrapping: link.client)
        guard let answer = try await link.withToken({ metadata in try await call(client, metadata) }) else {
            throw ActivityAuthorizationError(
                description: "no app token yet (GLIMPSE_TOKEN or GLIMPSE_TOKEN_FILE, written by glimpse install)")
        }
        return answer
    }

    /// Lists the app's activities again.
    func refresh() async {
        let list = try? await call { client, metadata in
            try await client.list(
                ClientRequest(message: GlimpseActivityV1.ListActivitiesRequest(), metadata: metadata), options: .appCall
            ).message
        }
        if let list { listed.withLock { $0 = list.activities } }
    }

    func remember<Attributes: ActivityAttributes>(
        _ wire: GlimpseActivityV1.Activity, attributes: Attributes, content: ActivityContent<Attributes.ContentState>
    ) -> Activity<Attributes> {
        let activity = Activity(id: wire.activityId, attributes: attributes, content: content, wire: wire)
        known.withLock { $0[wire.activityId] = activity }
        listed.withLock { list in
            list.removeAll { $0.activityId == wire.activityId }
            list.append(wire)
        }
        return activity
    }

    func activities<Attributes: ActivityAttributes>(of type: Attributes.Type) -> [Activity<Attributes>] {
        let wires = listed.withLock { $0 }.filter {
            $0.attributesType == Activity<Attributes>.typeName && $0.state != .dismissed
        }
        return wires.compactMap { wire in
            if let activity = known.withLock({ $0[wire.activityId] }) as? Activity<Attributes> {
                activity.refresh(from: wire)
                return activity
            }
            guard let attributes = try? JSONDecoder().decode(Attributes.self, from: Data(wire.attributesJson.utf8)),
                let content = wire.content.flatMap({ try? Activity<Attributes>.content(from: $0) })
            else { return nil }
            return remember(wire, attributes: attributes, content: content)
        }
    }
}

/// ActivityKit's synchronous calls (`request`, `activities`) made over the network: run on
/// a thread of their own, so a caller on Swift's cooperative pool never waits for a pool
/// thread it is holding.
enum Blocking {
    static let executor = EventLoopTaskExecutor(group: MultiThreadedEventLoopGroup(numberOfThreads: 1))

    static func run<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) throws -> Result {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
        Task(executorPreference: executor) {
            let result: Swift.Result<Result, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }
}

/// `ActivityAuthorizationInfo()`: whether the person allows this app's Live Activities (the
/// device's settings, asked of the gateway when read). Without a gateway or a token: false.
public struct ActivityAuthorizationInfo: Sendable {
    public init() {}

    private func info() -> GlimpseActivityV1.AuthorizationInfo? {
        try? Blocking.run {
            try await ActivityDirectory.shared.call { client, metadata in
                try await client.getAuthorizationInfo(
                    ClientRequest(message: GlimpseActivityV1.GetAuthorizationInfoRequest(), metadata: metadata),
                    options: .appCall
                ).message
            }
        }
    }

    public var areActivitiesEnabled: Bool { info()?.areActivitiesEnabled ?? false }
    public var frequentPushesEnabled: Bool { info()?.frequentPushesEnabled ?? false }
}

extension Activity {
    /// `pushTokenUpdates`: the activity's push token as the device issued it (requested with
    /// `pushType: .token`). Glimpse issues one token per activity and does not rotate it, so
    /// the sequence gives it once and ends.
    public var pushTokenUpdates: AsyncStream<Data> {
        let token = pushToken
        return AsyncStream { continuation in
            if let token { continuation.yield(token) }
            continuation.finish()
        }
    }
}
