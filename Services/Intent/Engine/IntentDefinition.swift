package import GlimpseVocabulary

/// An `AppIntent` an app declares for its widgets' and Live Activities' buttons and toggles.
package struct IntentDefinition: Sendable, Hashable, Codable {
    /// The intent's type name, e.g. `CheckInIntent`.
    package var type: String
    package var title: String
    package var parameters: [IntentParameter]
    package var action: IntentAction
    /// The widget kinds whose views carry a button or toggle for this intent. A tap from
    /// any other kind is refused: that widget has nothing to tap (Ride the Lightning Air's
    /// Lock Screen widget is read-only).
    package var widgetKinds: Set<String>
    /// The `ActivityAttributes` types whose Live Activity views carry a button or toggle
    /// for this intent (a `LiveActivityIntent`, whose `perform()` runs in the app). A tap
    /// on another type's activity is refused.
    package var activityAttributes: Set<String>
    /// What `perform()` asks `WidgetCenter` to reload besides the tapped widget (which
    /// the system always reloads): Ride the Lightning Air's `FlightStore` setter calls
    /// `reloadAllTimelines()`, so its read-only Lock Screen widget follows the tap too.
    package var reloads: IntentReloads

    package init(
        type: String, title: String, parameters: [IntentParameter] = [], action: IntentAction, widgetKinds: Set<String>,
        reloads: IntentReloads = .tappedWidget, activityAttributes: Set<String> = []
    ) {
        self.type = type
        self.title = title
        self.parameters = parameters
        self.action = action
        self.widgetKinds = widgetKinds
        self.activityAttributes = activityAttributes
        self.reloads = reloads
    }
}

extension IntentDefinition {
    /// The values `perform()` gets for the parameters a Button or Toggle pre-set (widgets
    /// do not prompt): each declared parameter from `preset` or its default, with its
    /// declared type; a name the intent does not declare is refused too.
    package func resolve(_ preset: [String: TypedValue]) -> Result<[String: TypedValue], TapRefusal> {
        for name in preset.keys.sorted() where !parameters.contains(where: { $0.name == name }) {
            return .failure(.unknownParameter(name))
        }
        var values: [String: TypedValue] = [:]
        for parameter in parameters {
            guard let value = preset[parameter.name] ?? parameter.defaultValue else {
                return .failure(.missingParameter(parameter.name))
            }
            guard value.type == parameter.type else {
                return .failure(.parameterTypeMismatch(name: parameter.name, expected: parameter.type, got: value.type))
            }
            values[parameter.name] = value
        }
        return .success(values)
    }
}

/// The reloads a performed intent asks for, beyond the tapped widget's own.
package enum IntentReloads: Sendable, Hashable, Codable {
    /// Only the tapped widget (the system's one reload per tap).
    case tappedWidget
    /// `WidgetCenter.reloadTimelines(ofKind:)` for each kind.
    case kinds(Set<String>)
    /// `WidgetCenter.reloadAllTimelines()`.
    case allTimelines

    /// Both: every timeline if either asks for it, else the kinds of both.
    package func merged(with other: IntentReloads) -> IntentReloads {
        switch (self, other) {
        case (.allTimelines, _), (_, .allTimelines): .allTimelines
        case (.kinds(let a), .kinds(let b)): .kinds(a.union(b))
        case (.kinds, .tappedWidget): self
        case (.tappedWidget, _): other
        }
    }
}

/// What `perform()` does.
package enum IntentAction: Sendable, Hashable, Codable {
    /// Declarative: these operations on one App Group, in order, atomically.
    case store(group: GroupID, operations: [StoreOperation])
    /// The app's own code: the engine asks the service to call the app's intent handler.
    case handler
}

/// Why an app's intents could not be installed.
package enum IntentCatalogError: Error, Sendable, Hashable {
    case appAlreadyInstalled(AppID)
    case duplicateIntent(String)
    case emptyAction(intent: String)
    case groupNotInApp(intent: String, group: GroupID)
    case unknownParameterReference(intent: String, parameter: String)
    case defaultValueTypeMismatch(intent: String, parameter: String)
}
