public import Foundation
public import GlimpseMessages
import Synchronization

/// App Intents' `AppIntent`: a type with `@Parameter`s and `perform()`. A `Button(intent:)`
/// carries its parameter values; a tap runs `perform()` in this process (the intent is
/// made with `init()` and its parameters set), and what `perform()` asks of
/// `WidgetCenter.shared` counts as the tap's reloads.
public protocol AppIntent: SendableMetatype {
    associatedtype PerformResult: IntentResult
    static var title: LocalizedStringResource { get }
    init()
    func perform() async throws -> PerformResult
}

/// A widget's configuration (`AppIntentConfiguration`).
public protocol WidgetConfigurationIntent: AppIntent {}

/// An intent a Live Activity's button runs (`perform()` may update the activity).
public protocol LiveActivityIntent: AppIntent {}

/// What `perform()` returns: `.result()`, or `.result(value:)`.
public protocol IntentResult: SendableMetatype {}

public struct IntentResultValue: IntentResult {
    let value: GlimpseWidgetV1.ParameterValue?
}

extension IntentResult where Self == IntentResultValue {
    public static func result() -> IntentResultValue { IntentResultValue(value: nil) }
    public static func result(value: some IntentParameterValue) -> IntentResultValue {
        IntentResultValue(value: value.parameterValue)
    }
}

/// App Intents' `LocalizedStringResource`, as a title: a string.
public struct LocalizedStringResource: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, Sendable,
    Hashable
{
    public let key: String
    public init(stringLiteral value: String) { key = value }
    public init(_ key: String) { self.key = key }
}

/// `IntentDescription("…")`.
public struct IntentDescription: ExpressibleByStringLiteral, Sendable {
    public let text: String
    public init(stringLiteral value: String) { text = value }
    public init(_ text: String) { self.text = text }
}

/// The values a `@Parameter` can hold on the wire.
public protocol IntentParameterValue {
    var parameterValue: GlimpseWidgetV1.ParameterValue { get }
    init?(parameterValue: GlimpseWidgetV1.ParameterValue)
    /// The manifest's name of the type (`VALUE_TYPE_STRING`).
    static var manifestValueType: String { get }
}

extension String: IntentParameterValue {
    public static var manifestValueType: String { "VALUE_TYPE_STRING" }
    public var parameterValue: GlimpseWidgetV1.ParameterValue { .init(kind: .stringValue(self)) }
    public init?(parameterValue: GlimpseWidgetV1.ParameterValue) {
        guard case .stringValue(let value)? = parameterValue.kind else { return nil }
        self = value
    }
}

extension Int: IntentParameterValue {
    public static var manifestValueType: String { "VALUE_TYPE_INT" }
    public var parameterValue: GlimpseWidgetV1.ParameterValue { .init(kind: .intValue(Int64(self))) }
    public init?(parameterValue: GlimpseWidgetV1.ParameterValue) {
        guard case .intValue(let value)? = parameterValue.kind, let int = Int(exactly: value) else { return nil }
        self = int
    }
}

extension Double: IntentParameterValue {
    public static var manifestValueType: String { "VALUE_TYPE_DOUBLE" }
    public var parameterValue: GlimpseWidgetV1.ParameterValue { .init(kind: .doubleValue(self)) }
    public init?(parameterValue: GlimpseWidgetV1.ParameterValue) {
        switch parameterValue.kind {
        case .doubleValue(let value)?: self = value
        case .intValue(let value)?: self = Double(value)
        default: return nil
        }
    }
}

extension Bool: IntentParameterValue {
    public static var manifestValueType: String { "VALUE_TYPE_BOOL" }
    public var parameterValue: GlimpseWidgetV1.ParameterValue { .init(kind: .boolValue(self)) }
    public init?(parameterValue: GlimpseWidgetV1.ParameterValue) {
        guard case .boolValue(let value)? = parameterValue.kind else { return nil }
        self = value
    }
}

extension Date: IntentParameterValue {
    public static var manifestValueType: String { "VALUE_TYPE_DATE" }
    public var parameterValue: GlimpseWidgetV1.ParameterValue { .init(kind: .dateValue(.init(date: self))) }
    public init?(parameterValue: GlimpseWidgetV1.ParameterValue) {
        guard case .dateValue(let value)? = parameterValue.kind else { return nil }
        self = value.date
    }
}

extension Optional: IntentParameterValue where Wrapped: IntentParameterValue {
    public static var manifestValueType: String { Wrapped.manifestValueType }
    public var parameterValue: GlimpseWidgetV1.ParameterValue { self?.parameterValue ?? .init() }
    public init?(parameterValue: GlimpseWidgetV1.ParameterValue) {
        self = parameterValue.kind == nil ? .none : Wrapped(parameterValue: parameterValue)
    }
}

/// `@Parameter(title:)`: a value the button (or the widget's configuration) sets.
@propertyWrapper
public struct Parameter<Value: IntentParameterValue>: @unchecked Sendable {
    /// Shared with the intent's copies, so a value can be set by name after `init()`.
    final class Storage: @unchecked Sendable {
        let lock = NSLock()
        var value: Value?
        let title: String
        init(value: Value?, title: String) {
            self.value = value
            self.title = title
        }
    }

    let storage: Storage

    public init(title: LocalizedStringResource, description: IntentDescription? = nil, default value: Value? = nil) {
        storage = Storage(value: value, title: title.key)
    }

    public init(wrappedValue: Value, title: LocalizedStringResource, description: IntentDescription? = nil) {
        storage = Storage(value: wrappedValue, title: title.key)
    }

    public var wrappedValue: Value {
        get {
            guard let value = storage.lock.withLock({ storage.value }) else {
                if let none = Value(parameterValue: GlimpseWidgetV1.ParameterValue()) { return none }
                fatalError("@Parameter \"\(storage.title)\" was read before it was set")
            }
            return value
        }
        nonmutating set { storage.lock.withLock { storage.value = newValue } }
    }
}

/// What a parameter is to the registry: its wire value, and setting it from one.
protocol ParameterSlot {
    var wireValue: GlimpseWidgetV1.ParameterValue? { get }
    /// The manifest's declaration: its title and value type.
    var title: String { get }
    var manifestValueType: String { get }
    /// False when the wire value is not of the parameter's type.
    func set(_ value: GlimpseWidgetV1.ParameterValue) -> Bool
    /// Not set, with no default, and not optional: reading it would have no value.
    var isMissing: Bool { get }
}

extension Parameter: ParameterSlot {
    var title: String { storage.title }
    var manifestValueType: String { Value.manifestValueType }
    var wireValue: GlimpseWidgetV1.ParameterValue? { storage.lock.withLock { storage.value?.parameterValue } }
    var isMissing: Bool {
        storage.lock.withLock { storage.value == nil } && Value(parameterValue: GlimpseWidgetV1.ParameterValue()) == nil
    }
    func set(_ value: GlimpseWidgetV1.ParameterValue) -> Bool {
        guard let typed = Value(parameterValue: value) else { return false }
        storage.lock.withLock { storage.value = typed }
        return true
    }
}

extension AppIntent {
    /// The type name the wire carries (`intent_type`).
    static var intentType: String { String(describing: Self.self) }

    /// The `@Parameter`s by name (the property's, without the wrapper's underscore).
    var parameterSlots: [(name: String, slot: any ParameterSlot)] {
        Mirror(reflecting: self).children.compactMap { child in
            guard let label = child.label, let slot = child.value as? any ParameterSlot else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, slot)
        }
    }

    /// The intent a tap performs: its parameters set from the tap's, each of its own type, and
    /// none left without a value (`perform()` reading one would have nothing to read).
    static func performable(_ parameters: [String: GlimpseWidgetV1.ParameterValue]) throws -> Self {
        let intent = Self()
        var refused: [String] = []
        for (name, slot) in intent.parameterSlots {
            if let value = parameters[name], !slot.set(value) {
                refused.append("\(name) is not a \(slot.manifestValueType)")
            } else if slot.isMissing {
                refused.append("\(name) has no value")
            }
        }
        guard refused.isEmpty else {
            throw IntentParameterError(description: "@Parameter " + refused.joined(separator: ", "))
        }
        return intent
    }

    /// The intent made as a placement's configuration describes it; values of the wrong type
    /// are left at their defaults.
    static func make(_ parameters: [String: GlimpseWidgetV1.ParameterValue]) -> Self {
        let intent = Self()
        for (name, slot) in intent.parameterSlots {
            if let value = parameters[name] { _ = slot.set(value) }
        }
        return intent
    }
}

/// The app's intent types, by name: registered by the widgets that use them
/// (`Button(intent:)`, `AppIntentConfiguration`) and by the bundle's `static var intents`.
final class IntentRegistry: Sendable {
    typealias Perform = @Sendable ([String: GlimpseWidgetV1.ParameterValue]) async throws -> IntentResultValue?

    static let shared = IntentRegistry()

    /// An `@Parameter` as the manifest declares it; a default makes it optional.
    struct ParameterDeclaration: Sendable {
        let name: String
        let type: String
        let title: String
        let defaultValue: GlimpseWidgetV1.ParameterValue?
    }

    /// One intent type: how to perform it, and its title and parameters for the manifest.
    struct Registered: Sendable {
        let perform: Perform
        let title: String
        let parameters: [ParameterDeclaration]
    }

    private let table = Mutex<[String: Registered]>([:])

    /// Registers `Intent` the first time it is named (each drawn Button names its intent: the
    /// declarations are read from a fresh `Intent()` once, not per drawing).
    func register<Intent: AppIntent>(_ type: Intent.Type) {
        guard table.withLock({ $0[Intent.intentType] }) == nil else { return }
        let declared = Intent().parameterSlots.map { name, slot in
            ParameterDeclaration(
                name: name, type: slot.manifestValueType, title: slot.title, defaultValue: slot.wireValue)
        }
        let registered = Registered(
            perform: { parameters in
                let intent = Unchecked(try Intent.performable(parameters))
                return try await intent.value.perform() as? IntentResultValue
            }, title: Intent.title.key, parameters: declared)
        table.withLock { table in
            if table[Intent.intentType] == nil { table[Intent.intentType] = registered }
        }
    }

    func performer(_ type: String) -> Perform? { table.withLock { $0[type]?.perform } }
    var types: [String] { table.withLock { $0.keys.sorted() } }
    func title(_ type: String) -> String? { table.withLock { $0[type]?.title } }
    /// The intent's `@Parameter`s as the manifest declares them (name, type, title).
    func parameters(_ type: String) -> [ParameterDeclaration] { table.withLock { $0[type]?.parameters ?? [] } }

    /// A button's intent on the wire, and its type registered.
    static func invocation<Intent: AppIntent>(_ intent: Intent) -> GlimpseWidgetV1.IntentInvocation {
        shared.register(Intent.self)
        var parameters: [String: GlimpseWidgetV1.ParameterValue] = [:]
        for (name, slot) in intent.parameterSlots {
            if let value = slot.wireValue { parameters[name] = value }
        }
        return GlimpseWidgetV1.IntentInvocation(intentType: Intent.intentType, parameters: parameters)
    }
}

/// A tap's parameters that do not fit the intent's `@Parameter`s: the tap fails with it.
struct IntentParameterError: Error, CustomStringConvertible {
    let description: String
}
