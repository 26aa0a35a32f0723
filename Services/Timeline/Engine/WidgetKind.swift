public import GlimpseVocabulary

/// A widget an app declares: `StaticConfiguration` or `AppIntentConfiguration` with its
/// display name, description, supported families and (for the latter) `@Parameter`s.
public struct WidgetKind: Sendable, Hashable, Codable {
    public var kind: String
    public var displayName: String
    public var description: String
    public var supportedFamilies: Set<WidgetFamily>
    /// The `WidgetConfigurationIntent` parameters; empty for a static configuration.
    public var parameters: [ConfigurationParameter]

    public init(
        kind: String, displayName: String, description: String = "",
        supportedFamilies: Set<WidgetFamily>, parameters: [ConfigurationParameter] = []
    ) {
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.supportedFamilies = supportedFamilies
        self.parameters = parameters
    }
}

/// One user-editable setting of a configurable widget: an `@Parameter` of its
/// `WidgetConfigurationIntent`, the same kind of parameter as an action intent's. Its
/// default is used when a placement does not set it; nil leaves it unset.
public typealias ConfigurationParameter = IntentParameter

/// A configuration value as the provider context carries it.
public typealias ConfigurationValue = TypedValue
