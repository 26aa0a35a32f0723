/// A tap on a widget's `Button(intent:)` or `Toggle(intent:)`.
public struct WidgetTap: Sendable, Hashable {
    /// Chosen by the tapper (one per physical tap); a replay returns the first result.
    public var idempotencyKey: String
    public var app: AppID
    public var placement: PlacementID
    public var kind: String
    public var family: WidgetFamily
    public var intent: String
    public var parameters: [String: TypedValue]

    public init(
        idempotencyKey: String, app: AppID, placement: PlacementID, kind: String, family: WidgetFamily,
        intent: String, parameters: [String: TypedValue] = [:]
    ) {
        self.idempotencyKey = idempotencyKey
        self.app = app
        self.placement = placement
        self.kind = kind
        self.family = family
        self.intent = intent
        self.parameters = parameters
    }
}

/// How a tap ended.
public enum TapResult: Sendable, Hashable {
    /// `perform()` succeeded; a handler may return a value.
    case performed(TypedValue?)
    /// `perform()` ran and failed (the widget is still reloaded, to show the true state).
    case failed(IntentFailure)
    /// Nothing ran.
    case refused(TapRefusal)
}

/// Why a tap was refused before anything ran.
public enum TapRefusal: Error, Sendable, Hashable {
    case unknownApp(AppID)
    case unknownIntent(String)
    /// The tapped widget's kind has no button or toggle for this intent.
    case notOfferedByKind(intent: String, kind: String)
    /// "Buttons and toggles are refused on accessoryInline" (spec §3).
    case notInteractive(WidgetFamily)
    /// Interactive widgets are "inactive on locked device until unlock" (spec §3).
    case deviceLocked
    /// "Widgets don't resolve intent parameters (must be pre-set)" (spec §3).
    case missingParameter(String)
    case unknownParameter(String)
    case parameterTypeMismatch(name: String, expected: ValueType, got: ValueType)
}

/// Why `perform()` failed.
public enum IntentFailure: Error, Sendable, Hashable {
    case store(StoreError)
    case handler(message: String)
    case handlerTimedOut
}
