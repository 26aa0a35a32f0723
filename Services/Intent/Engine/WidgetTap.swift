package import GlimpseVocabulary
/// A tap on a `Button(intent:)` or `Toggle(intent:)`: in a placed widget, or in a Live
/// Activity's views (the Lock Screen presentation or the expanded Dynamic Island, whose
/// buttons run a `LiveActivityIntent`). A widget tap names the placement only: the
/// placement's kind and family are the executor's own record of it (from
/// `placementAdded`), never the tapper's word, so a tap cannot claim to come from an
/// interactive family.
package struct WidgetTap: Sendable, Hashable, Codable {
    /// Chosen by the tapper (one per physical tap); a replay returns the first result.
    package var idempotencyKey: String
    package var app: AppID
    package var target: TapTarget
    package var intent: String
    package var parameters: [String: TypedValue]

    package init(
        idempotencyKey: String, app: AppID, target: TapTarget, intent: String, parameters: [String: TypedValue] = [:]
    ) {
        self.idempotencyKey = idempotencyKey
        self.app = app
        self.target = target
        self.intent = intent
        self.parameters = parameters
    }

    /// A tap on a placed widget.
    package init(
        idempotencyKey: String, app: AppID, placement: PlacementID, intent: String,
        parameters: [String: TypedValue] = [:]
    ) {
        self.init(
            idempotencyKey: idempotencyKey, app: app, target: .placement(placement), intent: intent,
            parameters: parameters)
    }

    /// The tapped placement; nil for a Live Activity.
    package var placement: PlacementID? { target.placement }
}

/// What was tapped: taps on one target run one at a time, in arrival order.
package enum TapTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A placed widget.
    case placement(PlacementID)
    /// A Live Activity, by its id and the `ActivityAttributes` type it was started with
    /// (the device's word: the gateway read both from glimpse-activity).
    case activity(id: String, attributesType: String)

    package var placement: PlacementID? {
        if case .placement(let id) = self { id } else { nil }
    }

    package var activityID: String? {
        if case .activity(let id, _) = self { id } else { nil }
    }

    package var description: String {
        switch self {
        case .placement(let id): "placement \(id)"
        case .activity(let id, let type): "Live Activity \(id) (\(type))"
        }
    }
}

/// What the executor knows of a placed widget: whose it is, its kind and its family.
package struct PlacedWidget: Sendable, Hashable, Codable {
    package var app: AppID
    package var kind: String
    package var family: WidgetFamily

    package init(app: AppID, kind: String, family: WidgetFamily) {
        self.app = app
        self.kind = kind
        self.family = family
    }
}

/// How a tap ended.
package enum TapResult: Sendable, Hashable, Codable {
    /// `perform()` succeeded; a handler may return a value.
    case performed(TypedValue?)
    /// `perform()` ran and failed (a widget is still reloaded, to show the true state).
    case failed(IntentFailure)
    /// Nothing ran.
    case refused(TapRefusal)
}

/// Why a tap was refused before anything ran.
package enum TapRefusal: Error, Sendable, Hashable, Codable {
    case unknownApp(AppID)
    /// No such placement on the device.
    case unknownPlacement(PlacementID)
    /// The placement belongs to another app than the tap names.
    case placementOfAnotherApp(PlacementID)
    case unknownIntent(String)
    /// The tapped widget's kind has no button or toggle for this intent.
    case notOfferedByKind(intent: String, kind: String)
    /// The tapped Live Activity's views (its `ActivityAttributes` type) offer no button or
    /// toggle for this intent.
    case notOfferedByActivity(intent: String, attributesType: String)
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
package enum IntentFailure: Error, Sendable, Hashable, Codable {
    case store(StoreError)
    case handler(message: String)
    case handlerTimedOut
}
