package import GlimpseVocabulary

/// A widget an app declares: `StaticConfiguration` or `AppIntentConfiguration` with its
/// display name, description, supported families and (for the latter) `@Parameter`s.
package struct WidgetKind: Sendable, Hashable, Codable {
    package var kind: String
    package var displayName: String
    package var description: String
    package var supportedFamilies: Set<WidgetFamily>
    /// The `WidgetConfigurationIntent` parameters; empty for a static configuration.
    package var parameters: [ConfigurationParameter]

    package init(
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
package typealias ConfigurationParameter = IntentParameter

/// A configuration value as the provider context carries it.
package typealias ConfigurationValue = TypedValue
