public import AppIntentValues
public import GlimpseVocabulary
/// A tap on a widget's `Button(intent:)` or `Toggle(intent:)`. It names the placement
/// only: the placement's kind and family are the executor's own record of it (from
/// `placementAdded`), never the tapper's word, so a tap cannot claim to come from an
/// interactive family.
public struct WidgetTap: Sendable, Hashable {
    /// Chosen by the tapper (one per physical tap); a replay returns the first result.
    public var idempotencyKey: String
    public var app: AppID
    public var placement: PlacementID
    public var intent: String
    public var parameters: [String: TypedValue]

    public init(
        idempotencyKey: String, app: AppID, placement: PlacementID, intent: String, parameters: [String: TypedValue] = [:]
    ) {
        self.idempotencyKey = idempotencyKey
        self.app = app
        self.placement = placement
        self.intent = intent
        self.parameters = parameters
    }
}

/// What the executor knows of a placed widget: whose it is, its kind and its family.
public struct PlacedWidget: Sendable, Hashable {
    public var app: AppID
    public var kind: String
    public var family: WidgetFamily

    public init(app: AppID, kind: String, family: WidgetFamily) {
        self.app = app
        self.kind = kind
        self.family = family
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
    /// No such placement on the device.
    case unknownPlacement(PlacementID)
    /// The placement belongs to another app than the tap names.
    case placementOfAnotherApp(PlacementID)
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
