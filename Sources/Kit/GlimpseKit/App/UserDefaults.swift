public import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Synchronization

/// `UserDefaults(suiteName: "group.…")`: the App Group the app shares with its widgets, kept
/// by the device (glimpse-gateway's AppGroup service, with the app token), so what an intent
/// writes the widget's provider reads, a script sees (`glimpse group`), and a restart keeps.
/// The group must be one of the manifest's `appGroups` (`<app> manifest --app-group …`).
///
/// Foundation's type keeps its name: this one is picked because its initializer takes a
/// `String` where Foundation's takes a `String?`. Values are the App Group's kinds (String,
/// Int, Double, Bool, Date, Data). Reads and writes are synchronous, as Foundation's; a
/// failed write (the gateway down, a group the app is not in) is said on standard error.
/// Outside a served process (a unit test) the suite is this process's memory.
public final class UserDefaults: Sendable {
    public let suiteName: String
    private let memory = Mutex<[String: GlimpseWidgetV1.ParameterValue]>([:])

    public init?(suiteName: String) {
        guard !suiteName.isEmpty else { return nil }
        self.suiteName = suiteName
        Self.suites.withLock { _ = $0.insert(suiteName) }
    }

    /// The suites made in this process, for the manifest's `appGroups`.
    static let suites = Mutex<Set<String>>([])

    // MARK: Reading

    public func object(forKey key: String) -> Any? { object(from: value(forKey: key)) }

    public func string(forKey key: String) -> String? {
        switch value(forKey: key)?.kind {
        case .stringValue(let value)?: value
        case .intValue(let value)?: String(value)
        case .doubleValue(let value)?: String(value)
        default: nil
        }
    }

    public func integer(forKey key: String) -> Int {
        switch value(forKey: key)?.kind {
        case .intValue(let value)?: Int(truncatingIfNeeded: value)
        case .doubleValue(let value)?: Int(exactly: value.rounded(.towardZero)) ?? 0
        case .boolValue(let value)?: value ? 1 : 0
        case .stringValue(let value)?: Int(value) ?? 0
        default: 0
        }
    }

    public func double(forKey key: String) -> Double {
        switch value(forKey: key)?.kind {
        case .doubleValue(let value)?: value
        case .intValue(let value)?: Double(value)
        case .boolValue(let value)?: value ? 1 : 0
        case .stringValue(let value)?: Double(value) ?? 0
        default: 0
        }
    }

    public func bool(forKey key: String) -> Bool {
        switch value(forKey: key)?.kind {
        case .boolValue(let value)?: value
        case .intValue(let value)?: value != 0
        case .doubleValue(let value)?: value != 0
        case .stringValue(let value)?: ["yes", "true", "1"].contains(value.lowercased())
        default: false
        }
    }

    public func data(forKey key: String) -> Data? {
        guard case .bytesValue(let value)? = value(forKey: key)?.kind else { return nil }
        return Data(value)
    }

    /// The group's keys and values.
    public func dictionaryRepresentation() -> [String: Any] {
        let entries: [GlimpseIntentV1.Entry]
        if let link = GatewayLink.current.withLock({ $0 }) {
            let request = GlimpseIntentV1.ListRequest(appGroup: suiteName)
            entries =
                (try? Blocking.run {
                    try await Self.call(link) { group, metadata in
                        try await group.list(ClientRequest(message: request, metadata: metadata), options: .appCall)
                            .message.entries
                    }
                }) ?? []
        } else {
            entries = memory.withLock { $0.map { GlimpseIntentV1.Entry(key: $0.key, value: $0.value) } }
        }
        var dictionary: [String: Any] = [:]
        for entry in entries { dictionary[entry.key] = object(from: entry.value) }
        return dictionary
    }

    // MARK: Writing

    /// A String, Int, Double, Float, Bool, Date, Data or URL (as its string); nil removes
    /// the key. Other values (arrays, dictionaries) are not kept, and said so.
    public func set(_ value: Any?, forKey key: String) {
        guard let value else { return removeObject(forKey: key) }
        guard let wire = Self.wire(value) else {
            FileHandle.standardError.write(
                Data("UserDefaults(\(suiteName)).set(_:forKey: \(key)): \(type(of: value)) is not kept\n".utf8))
            return
        }
        write("set(_:forKey: \(key))", local: { $0[key] = wire }) { group, metadata in
            _ = try await group.set(
                ClientRequest(
                    message: GlimpseIntentV1.SetRequest(appGroup: self.suiteName, key: key, value: wire),
                    metadata: metadata),
                options: .appCall)
        }
    }

    public func removeObject(forKey key: String) {
        write("removeObject(forKey: \(key))", local: { $0[key] = nil }) { group, metadata in
            _ = try await group.remove(
                ClientRequest(
                    message: GlimpseIntentV1.RemoveRequest(appGroup: self.suiteName, key: key), metadata: metadata),
                options: .appCall)
        }
    }

    /// Foundation's: nothing to flush, every write is the device's when `set` returns.
    @discardableResult
    public func synchronize() -> Bool { true }

    // MARK: The device

    private func value(forKey key: String) -> GlimpseWidgetV1.ParameterValue? {
        guard let link = GatewayLink.current.withLock({ $0 }) else { return memory.withLock { $0[key] } }
        let request = GlimpseIntentV1.GetRequest(appGroup: suiteName, key: key)
        let entry = try? Blocking.run {
            try await Self.call(link) { group, metadata in
                try await group.get(ClientRequest(message: request, metadata: metadata), options: .appCall).message
                    .entry
            }
        }
        return entry??.value
    }

    private func write(
        _ what: String, local: (inout [String: GlimpseWidgetV1.ParameterValue]) -> Void,
        _ call: @escaping @Sendable (GlimpseGatewayV1.AppGroup.Client, Metadata) async throws -> Void
    ) {
        guard let link = GatewayLink.current.withLock({ $0 }) else { return memory.withLock { local(&$0) } }
        do {
            let done: Void? = try Blocking.run { try await Self.call(link, call) }
            if done == nil { throw GlimpseAppError("no app token yet (GLIMPSE_TOKEN or GLIMPSE_TOKEN_FILE)") }
        } catch {
            FileHandle.standardError.write(Data("UserDefaults(\(suiteName)).\(what): \(error)\n".utf8))
        }
    }

    private static func call<Answer: Sendable>(
        _ link: GatewayLink,
        _ body: @escaping @Sendable (GlimpseGatewayV1.AppGroup.Client, Metadata) async throws -> Answer
    ) async throws -> Answer? {
        let group = GlimpseGatewayV1.AppGroup.Client(wrapping: link.client)
        return try await link.withToken { metadata in try await body(group, metadata) }
    }

    private func object(from value: GlimpseWidgetV1.ParameterValue?) -> Any? {
        switch value?.kind {
        case .stringValue(let value)?: value
        case .intValue(let value)?: Int(truncatingIfNeeded: value)
        case .doubleValue(let value)?: value
        case .boolValue(let value)?: value
        case .dateValue(let value)?: value.date
        case .bytesValue(let value)?: Data(value)
        case nil: nil
        }
    }

    static func wire(_ value: Any) -> GlimpseWidgetV1.ParameterValue? {
        switch value {
        case let value as String: .init(kind: .stringValue(value))
        case let value as Bool: .init(kind: .boolValue(value))
        case let value as Int: .init(kind: .intValue(Int64(value)))
        case let value as Int64: .init(kind: .intValue(value))
        case let value as Int32: .init(kind: .intValue(Int64(value)))
        case let value as Double: .init(kind: .doubleValue(value))
        case let value as Float: .init(kind: .doubleValue(Double(value)))
        case let value as Date: .init(kind: .dateValue(.init(date: value)))
        case let value as Data: .init(kind: .bytesValue([UInt8](value)))
        case let value as URL: .init(kind: .stringValue(value.absoluteString))
        default: nil
        }
    }
}
